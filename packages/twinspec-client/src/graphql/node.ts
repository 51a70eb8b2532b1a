// The GraphQL client for Node: the global WebSocket where Node has one, else the `ws` package's, loaded the first
// time a subscription connects. The same API as browser.ts.
import { createGraphqlClient as create, type GraphqlClient, type GraphqlClientOptions } from "./client.js";

export * from "./types.js";

// The specifier is typed as a plain string so that the client's DOM-only build does not take in `ws`'s declarations
// (and with them Node's); bundlers still see the literal.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the type stays string; what the assertion changes is that tsc no longer resolves the specifier
const loadWs = async () => ((await import("ws" as string)) as { default: unknown }).default;

const webSocket = () => (globalThis as { WebSocket?: unknown }).WebSocket ?? loadWs();

export function createGraphqlClient<Code extends string = string>(options: GraphqlClientOptions): GraphqlClient<Code> {
  return create<Code>(options, webSocket);
}

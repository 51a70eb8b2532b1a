// The GraphQL client for browsers and any runtime with a global WebSocket (workers, Deno, Bun, recent Node): it
// imports nothing of Node, so bundlers need no shims.
import { createGraphqlClient as create, type GraphqlClient, type GraphqlClientOptions } from "./client.js";

export * from "./types.js";

const globalWebSocket = () => (globalThis as { WebSocket?: unknown }).WebSocket;

export function createGraphqlClient<Code extends string = string>(options: GraphqlClientOptions): GraphqlClient<Code> {
  return create<Code>(options, globalWebSocket);
}

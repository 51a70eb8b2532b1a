// The subscription transports, graphql-ws and graphql-sse. Each reconnects and subscribes again by its own retry
// loop (graphql-ws: every subscription still open is sent again once the new socket is acknowledged; graphql-sse:
// each subscription's request is made again): this file only maps the client's options onto theirs.
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws/client";
import { GraphqlRequestError, type GraphqlClientOptions, type GraphqlError, type GraphqlResult } from "./types.js";

/** What a subscription sends: the text, or only its id or hash (`query` is then "", as both protocols demand a string). */
export interface Payload {
  query: string;
  operationName?: string;
  variables: Record<string, unknown>;
  documentId?: string;
  extensions?: Record<string, unknown>;
}

export interface Transport {
  iterate(payload: Payload): AsyncIterableIterator<GraphqlResult<unknown>>;
  dispose(): Promise<void>;
}

export interface TransportOptions {
  url: string;
  /** the Authorization header for the next connection, or none */
  authorization: () => Promise<string | undefined>;
  reconnect: GraphqlClientOptions["reconnect"];
  on: GraphqlClientOptions["on"];
}

const DEFAULT_ATTEMPTS = 10;
const attemptsOf = (reconnect: TransportOptions["reconnect"]) =>
  reconnect === false ? 0 : (reconnect?.attempts ?? DEFAULT_ATTEMPTS);
const waitOf = (reconnect: TransportOptions["reconnect"]) => (reconnect ? reconnect.wait : undefined);

const FORBIDDEN = 4403;
const isClose = (e: unknown): e is { code: number; reason?: string } =>
  typeof e === "object" && e !== null && "code" in e && "reason" in e;

/**
 * Whether graphql-ws tries again: on a close it does not itself hold fatal, and on the socket's own error events (a
 * refused or dropped connection); not on the client's internal errors (Error instances), nor when the server
 * refused the token (retrying sends the same token again).
 */
const abrupt = (e: unknown) => (isClose(e) ? e.code !== FORBIDDEN : !(e instanceof Error));

/** What a failed subscription rejects with: the GraphQL errors of a refusal, else an Error saying what closed. */
export function failure(e: unknown): Error {
  if (Array.isArray(e)) return new GraphqlRequestError(e as GraphqlError[]);
  if (e instanceof Error) return e;
  if (isClose(e))
    return new Error(`the GraphQL WebSocket closed (${e.code}${e.reason ? `: ${e.reason}` : ""})`, { cause: e });
  const detail = (e as { message?: unknown } | null)?.message;
  return new Error(`the GraphQL WebSocket failed${typeof detail === "string" && detail ? `: ${detail}` : ""}`, {
    cause: e,
  });
}

export function wsTransport(
  webSocketImpl: unknown,
  { url, authorization, reconnect, on }: TransportOptions,
): Transport {
  const client = createWsClient({
    url,
    webSocketImpl,
    // Called for each connection, so a reconnection presents the token of that moment.
    connectionParams: async () => {
      const value = await authorization();
      return value ? { authorization: value } : undefined;
    },
    retryAttempts: attemptsOf(reconnect),
    retryWait: waitOf(reconnect),
    shouldRetry: abrupt,
    on: {
      connecting: (retry) => on?.connecting?.(retry),
      connected: (_socket, _payload, retry) => on?.connected?.(retry),
    },
  });
  return {
    iterate: (payload) => client.iterate(payload) as AsyncIterableIterator<GraphqlResult<unknown>>,
    dispose: async () => {
      await client.dispose();
    },
  };
}

/**
 * graphql-sse takes any answer that is not an event stream for a network failure and retries it; a GraphQL refusal
 * (4xx with a JSON body: PERSISTED_QUERY_NOT_FOUND, a bad token, a rate limit) would not change by retrying, so it
 * becomes a stream of that one result, which the client reports like a graphql-ws refusal.
 */
const refusalsAsResults =
  (fetchImpl: typeof fetch): typeof fetch =>
  async (input, init) => {
    const res = await fetchImpl(input, init);
    if (res.ok || res.status >= 500 || !/json/.test(res.headers.get("content-type") ?? "")) return res;
    const result = await res.json().catch(() => ({ errors: [{ message: `${res.status} ${res.statusText}` }] }));
    return new Response(`event: next\ndata: ${JSON.stringify(result)}\n\nevent: complete\ndata:\n\n`, {
      headers: { "content-type": "text/event-stream" },
    });
  };

export function sseTransport(
  fetchImpl: typeof fetch,
  { url, authorization, reconnect, on }: TransportOptions,
): Transport {
  const client = createSseClient({
    url,
    fetchFn: refusalsAsResults(fetchImpl),
    // Called for each connection (each subscription, and each of its retries).
    headers: async (): Promise<Record<string, string>> => {
      const value = await authorization();
      return value ? { authorization: value } : {};
    },
    retryAttempts: attemptsOf(reconnect),
    retry: waitOf(reconnect),
    on: { connecting: (retry) => on?.connecting?.(retry), connected: (retry) => on?.connected?.(retry) },
  });
  return {
    // A documentId rides along in the JSON body, which the server reads beside graphql-sse's own parameters.
    iterate: (payload) => client.iterate(payload) as AsyncIterableIterator<GraphqlResult<unknown>>,
    dispose: async () => client.dispose(),
  };
}

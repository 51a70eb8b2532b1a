// A small typed GraphQL client for the documents graphql-codegen's client preset generates: queries and mutations
// over HTTP (GraphQL over HTTP), subscriptions over graphql-ws or graphql-sse, reconnecting. Variables and results
// are inferred from the document, so a wrong variable or a field the operation did not select fails to compile.
// Documents go as their persisted hash (automatic persisted queries), the text only when the server asks for it.
// Transport-independent: browser.ts and node.ts bind it to a WebSocket implementation.
import { getOperationAST, print, type DocumentNode } from "graphql";
import { bearer } from "../token.js";
import { failure, sseTransport, wsTransport, type Payload, type Transport } from "./transports.js";
import {
  GraphqlRequestError,
  type GraphqlClient,
  type GraphqlClientOptions,
  type GraphqlError,
  type GraphqlResult,
} from "./types.js";

export * from "./types.js";

/** The WebSocket constructor graphql-ws is to use, or a promise of it (Node loads `ws` only when first needed). */
export type WebSocketSource = () => unknown;

const notFound = (errors: readonly GraphqlError[] | undefined) =>
  !!errors?.some((e) => e.extensions?.code === "PERSISTED_QUERY_NOT_FOUND");

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const absolute = (url: string) => new URL(url, (globalThis as { location?: { href: string } }).location?.href).href;

export function createGraphqlClient<Code extends string = string>(
  options: GraphqlClientOptions,
  webSocket: WebSocketSource,
): GraphqlClient<Code> {
  const {
    url,
    token,
    fetch: fetchImpl = fetch,
    persisted = "apq",
    getForHashedQueries = false,
    transport = "ws",
    reconnect,
    on,
  } = options;

  interface Known {
    query: string;
    operationName?: string;
    operation?: string;
    /** the hex SHA-256 sent for APQ: the manifest's, until the server asked for the text; then the text's */
    hash?: string;
    documentId?: string;
    /** a subscription declaring `$after`: it resumes after the last event id it received when it reconnects */
    resumes?: boolean;
  }
  const known = new WeakMap<DocumentNode, Known>();
  const describe = (document: DocumentNode): Known => {
    let k = known.get(document);
    if (!k) {
      const operation = getOperationAST(document);
      // The client preset embeds the manifest id ("sha256:<hex>") in each document it generates.
      const id = (document as { __meta__?: { hash?: unknown } }).__meta__?.hash;
      const documentId = typeof id === "string" ? id : undefined;
      const hash = documentId?.startsWith("sha256:") ? documentId.slice(7) : undefined;
      const resumes =
        operation?.operation === "subscription" &&
        operation.variableDefinitions?.some((v) => v.variable.name.value === "after");
      known.set(
        document,
        (k = {
          query: print(document),
          operationName: operation?.name?.value,
          operation: operation?.operation,
          hash,
          documentId,
          resumes,
        }),
      );
    }
    return k;
  };
  /** What to send first: only the id when the document has one and the mode allows, else the text. */
  const firstPayload = (k: Known, variables: unknown): Payload => {
    const base = { operationName: k.operationName, variables: (variables ?? {}) as Record<string, unknown> };
    if (persisted === "documentId" && k.documentId) return { ...base, query: "", documentId: k.documentId };
    if (persisted === "apq" && k.hash)
      return { ...base, query: "", extensions: { persistedQuery: { version: 1, sha256Hash: k.hash } } };
    return { ...base, query: k.query };
  };
  /** APQ's second step: the text with its own hash; the server registers it, so later requests send that hash. */
  const withText = async (k: Known, payload: Payload): Promise<Payload> => {
    k.hash = await sha256Hex(k.query);
    return { ...payload, query: k.query, extensions: { persistedQuery: { version: 1, sha256Hash: k.hash } } };
  };
  /** Only a hash-only first try is answered by the text, once. */
  const fallsBack = (payload: Payload, errors: readonly GraphqlError[] | undefined) =>
    persisted === "apq" && payload.query === "" && notFound(errors);
  const authorization = () => bearer(token);

  async function send(payload: Payload, operation: string | undefined): Promise<GraphqlResult<never, Code>> {
    const auth = await authorization();
    const headers: Record<string, string> = {
      accept: "application/graphql-response+json, application/json",
      ...(auth ? { authorization: auth } : {}),
    };
    let res: Response;
    if (getForHashedQueries && operation === "query" && payload.query === "") {
      const search = new URLSearchParams({ variables: JSON.stringify(payload.variables) });
      if (payload.operationName) search.set("operationName", payload.operationName);
      if (payload.documentId) search.set("documentId", payload.documentId);
      if (payload.extensions) search.set("extensions", JSON.stringify(payload.extensions));
      res = await fetchImpl(`${url}?${search}`, { headers });
    } else {
      const { query, ...rest } = payload;
      // Without the text, `query` is left out of the body (the subscription protocols alone need it as "").
      res = await fetchImpl(url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(query ? payload : rest),
      });
    }
    // GraphQL over HTTP answers errors in a JSON body, 4xx included; anything else is not a GraphQL answer.
    if (!/json/.test(res.headers.get("content-type") ?? ""))
      throw new Error(`${url} answered ${res.status} without a GraphQL response`);
    return (await res.json()) as GraphqlResult<never, Code>;
  }

  let subscriptions: Promise<Transport> | undefined;
  const connect = (): Promise<Transport> =>
    (subscriptions ??= (async () => {
      const common = { authorization, reconnect, on };
      if (transport === "sse")
        return sseTransport(fetchImpl, { ...common, url: absolute(options.sseUrl ?? `${url}/stream`) });
      const wsUrl = options.wsUrl ?? absolute(url).replace(/^http/, "ws");
      return wsTransport(await webSocket(), { ...common, url: wsUrl });
    })());
  const open = new Set<AsyncIterableIterator<unknown>>();

  /**
   * One subscription, written out rather than as an async generator: `return()` must reach the transport while a
   * `next()` is still waiting for an event (a generator would queue it behind that `next()`).
   */
  function subscription(k: Known, variables: unknown): AsyncIterableIterator<GraphqlResult<never, Code>> {
    // A copy of the variables: `after` moves on with each event, and the transports send the payload again as it
    // is then when they reconnect, so nothing made meanwhile is missed (the server's event log has it).
    let payload = firstPayload(k, k.resumes ? { ...(variables as object) } : variables);
    let source: Promise<AsyncIterableIterator<GraphqlResult<unknown>>> | undefined;
    let ended = false;
    const done = { done: true as const, value: undefined };
    const iterator: AsyncIterableIterator<GraphqlResult<never, Code>> = {
      async next() {
        while (!ended) {
          let events: AsyncIterableIterator<GraphqlResult<unknown>> | undefined;
          try {
            events = await (source ??= connect().then((t) => t.iterate(payload)));
            const step = await events.next();
            if (step.done) break;
            // A result without data is a request error (nothing ran): a refusal, over either transport.
            if (!("data" in step.value) && step.value.errors?.length) throw new GraphqlRequestError(step.value.errors);
            const eventId = (step.value.extensions as { eventId?: unknown } | undefined)?.eventId;
            if (k.resumes && typeof eventId === "string") payload.variables.after = eventId;
            return step as IteratorResult<GraphqlResult<never, Code>>;
          } catch (error) {
            events?.return?.().catch(() => undefined);
            const reason = failure(error);
            if (!ended && reason instanceof GraphqlRequestError && fallsBack(payload, reason.errors)) {
              payload = await withText(k, payload);
              source = undefined;
              continue;
            }
            ended = true;
            open.delete(iterator);
            throw reason;
          }
        }
        ended = true;
        open.delete(iterator);
        return done;
      },
      async return() {
        ended = true;
        open.delete(iterator);
        await (await source?.catch(() => undefined))?.return?.();
        return done;
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    open.add(iterator);
    return iterator;
  }

  const client: GraphqlClient<Code> = {
    async request(document, ...[variables]) {
      const k = describe(document);
      const payload = firstPayload(k, variables);
      const result = await send(payload, k.operation);
      if (fallsBack(payload, result.errors)) return send(await withText(k, payload), k.operation);
      return result;
    },
    async data(document, ...variables) {
      const result = await client.request(document, ...variables);
      if (result.errors?.length || result.data == null)
        throw new GraphqlRequestError<Code>(result.errors ?? [{ message: "no data" }]);
      return result.data;
    },
    subscribe: (document, ...[variables]) => subscription(describe(document), variables),
    async close() {
      // Ending the subscriptions first leaves the transports nothing to reconnect for.
      await Promise.all([...open].map(async (it) => it.return?.().catch(() => undefined)));
      const closing = subscriptions;
      subscriptions = undefined;
      await (await closing?.catch(() => undefined))?.dispose().catch(() => undefined);
    },
  };
  return client;
}

// A small typed GraphQL client for the documents `npm run generate` makes from client/operations/*.graphql:
// queries and mutations over HTTP (GraphQL over HTTP), subscriptions over graphql-ws. Variables and results are
// inferred from the document, so a wrong variable or a field the operation did not select fails to compile.
// Documents go as their persisted hash (automatic persisted queries), the text only when the server asks for it.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { getOperationAST, print, type DocumentNode } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface GraphqlResult<TData> {
  data?: TData | null;
  errors?: GraphqlError[];
}

/** Variables may be left out only when the operation declares none that are required. */
type VariablesArg<V> = {} extends V ? [variables?: V] : [variables: V];

export class GraphqlRequestError extends Error {
  constructor(readonly errors: GraphqlError[]) {
    super(errors.map((e) => `${e.extensions?.code ?? "ERROR"}: ${e.message}`).join("; "));
  }
}

export interface GraphqlClientOptions {
  /** the GraphQL endpoint, e.g. http://127.0.0.1:3000/graphql; subscriptions use the same URL as ws:// */
  url: string;
  /** a bearer JWT; sent as Authorization on HTTP and as connection_init { authorization } on graphql-ws */
  token?: string;
  fetch?: typeof fetch;
  /**
   * How a document with a persisted hash (`npm run generate` puts one in each) is sent:
   * - "apq" (default): only the hash, as Apollo's automatic persisted queries; when the server answers
   *   PERSISTED_QUERY_NOT_FOUND the text follows with its own hash, once, and that hash is used from then on;
   * - "documentId": only `documentId` (the client preset's convention), no fallback: for servers that run only
   *   persisted documents;
   * - false: the text, always.
   */
  persisted?: "apq" | "documentId" | false;
  /** hashed queries (not mutations) over GET, which caches and CDNs can keep; the text always goes by POST */
  getForHashedQueries?: boolean;
}

export interface GraphqlClient {
  /** The whole response: data beside errors (a failing nullable field yields both). */
  request<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesArg<V>): Promise<GraphqlResult<R>>;
  /** Just the data; any error rejects with GraphqlRequestError carrying every error and its code. */
  data<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesArg<V>): Promise<R>;
  /** Each event of a subscription; `return()` (or leaving a for-await loop) ends it on the server too. */
  subscribe<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesArg<V>): AsyncIterableIterator<GraphqlResult<R>>;
  /** Closes the WebSocket, if one was opened. */
  close(): Promise<void>;
}

type Payload = { query: string; operationName?: string; variables: Record<string, unknown>; documentId?: string; extensions?: Record<string, unknown> };

const notFound = (errors: readonly GraphqlError[] | undefined) => !!errors?.some((e) => e.extensions?.code === "PERSISTED_QUERY_NOT_FOUND");

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function createGraphqlClient({ url, token, fetch: fetchImpl = fetch, persisted = "apq", getForHashedQueries = false }: GraphqlClientOptions): GraphqlClient {
  interface Known {
    query: string;
    operationName?: string;
    operation?: string;
    /** the hex SHA-256 sent for APQ: the manifest's, until the server asked for the text; then the text's */
    hash?: string;
    documentId?: string;
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
      known.set(document, (k = { query: print(document), operationName: operation?.name?.value, operation: operation?.operation, hash, documentId }));
    }
    return k;
  };
  /** What to send first: only the id when the document has one and the mode allows, else the text. */
  const firstPayload = (k: Known, variables: unknown): Payload => {
    const base = { operationName: k.operationName, variables: (variables ?? {}) as Record<string, unknown> };
    if (persisted === "documentId" && k.documentId) return { ...base, query: "", documentId: k.documentId };
    if (persisted === "apq" && k.hash) return { ...base, query: "", extensions: { persistedQuery: { version: 1, sha256Hash: k.hash } } };
    return { ...base, query: k.query };
  };
  /** APQ's second step: the text with its own hash; the server registers it, so later requests send that hash. */
  const withText = async (k: Known, payload: Payload): Promise<Payload> => {
    k.hash = await sha256Hex(k.query);
    return { ...payload, query: k.query, extensions: { persistedQuery: { version: 1, sha256Hash: k.hash } } };
  };
  const headers = {
    accept: "application/graphql-response+json, application/json",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };

  async function send(payload: Payload, operation: string | undefined): Promise<GraphqlResult<never>> {
    let res: Response;
    if (getForHashedQueries && operation === "query" && payload.query === "") {
      const search = new URLSearchParams({ variables: JSON.stringify(payload.variables) });
      if (payload.operationName) search.set("operationName", payload.operationName);
      if (payload.documentId) search.set("documentId", payload.documentId);
      if (payload.extensions) search.set("extensions", JSON.stringify(payload.extensions));
      res = await fetchImpl(`${url}?${search}`, { headers });
    } else {
      const { query, ...rest } = payload;
      // Without the text, `query` is left out of the body (graphql-ws alone needs it as "").
      res = await fetchImpl(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(query ? payload : rest) });
    }
    // GraphQL over HTTP answers errors in a JSON body, 4xx included; anything else is not a GraphQL answer.
    if (!/json/.test(res.headers.get("content-type") ?? "")) throw new Error(`${url} answered ${res.status} without a GraphQL response`);
    return (await res.json()) as GraphqlResult<never>;
  }

  let ws: Client | undefined;
  const socket = () =>
    (ws ??= createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : undefined,
      retryAttempts: 0,
    }));

  async function* subscription(k: Known, variables: unknown): AsyncGenerator<GraphqlResult<never>> {
    const payload = firstPayload(k, variables);
    try {
      yield* socket().iterate(payload) as AsyncIterableIterator<GraphqlResult<never>>;
    } catch (errors) {
      // graphql-ws rejects with the errors of an Error message; only the first step of APQ is retried.
      if (persisted !== "apq" || payload.query !== "" || !Array.isArray(errors) || !notFound(errors)) throw errors;
      yield* socket().iterate(await withText(k, payload)) as AsyncIterableIterator<GraphqlResult<never>>;
    }
  }

  const client: GraphqlClient = {
    async request(document, ...[variables]) {
      const k = describe(document);
      const payload = firstPayload(k, variables);
      const result = await send(payload, k.operation);
      if (persisted === "apq" && payload.query === "" && notFound(result.errors)) return send(await withText(k, payload), k.operation);
      return result;
    },
    async data(document, ...variables) {
      const result = await client.request(document, ...variables);
      if (result.errors?.length || result.data == null) throw new GraphqlRequestError(result.errors ?? [{ message: "no data" }]);
      return result.data;
    },
    subscribe: (document, ...[variables]) => subscription(describe(document), variables),
    async close() {
      await ws?.dispose();
      ws = undefined;
    },
  };
  return client;
}

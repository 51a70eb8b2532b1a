// A small typed GraphQL client for the documents `npm run generate` makes from client/operations/*.graphql:
// queries and mutations over HTTP (GraphQL over HTTP, POST), subscriptions over graphql-ws. Variables and
// results are inferred from the document, so a wrong variable or a field the operation did not select fails
// to compile.
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

export function createGraphqlClient({ url, token, fetch: fetchImpl = fetch }: GraphqlClientOptions): GraphqlClient {
  const printed = new WeakMap<DocumentNode, { query: string; operationName?: string }>();
  const payload = (document: DocumentNode, variables: unknown) => {
    let p = printed.get(document);
    if (!p) printed.set(document, (p = { query: print(document), operationName: getOperationAST(document)?.name?.value }));
    return { ...p, variables: (variables ?? {}) as Record<string, unknown> };
  };
  let ws: Client | undefined;

  const client: GraphqlClient = {
    async request(document, ...[variables]) {
      const res = await fetchImpl(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(payload(document, variables)),
      });
      // GraphQL over HTTP answers errors in a JSON body, 4xx included; anything else is not a GraphQL answer.
      if (!/json/.test(res.headers.get("content-type") ?? "")) throw new Error(`${url} answered ${res.status} without a GraphQL response`);
      return (await res.json()) as GraphqlResult<never>;
    },
    async data(document, ...variables) {
      const result = await client.request(document, ...variables);
      if (result.errors?.length || result.data == null) throw new GraphqlRequestError(result.errors ?? [{ message: "no data" }]);
      return result.data;
    },
    subscribe(document, ...[variables]) {
      ws ??= createClient({
        url: url.replace(/^http/, "ws"),
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : undefined,
        retryAttempts: 0,
      });
      return ws.iterate(payload(document, variables)) as AsyncIterableIterator<GraphqlResult<never>>;
    },
    async close() {
      await ws?.dispose();
      ws = undefined;
    },
  };
  return client;
}

// The GraphQL client's public types: options, results and errors, with the server's error codes as a type parameter
// so that `extensions.code` is checked against the codes the server declares.
import type { DocumentNode } from "graphql";
import type { Token } from "../token.js";

/** A document that carries its result and variables types: graphql-codegen's TypedDocumentNode, structurally. */
export interface TypedDocument<R = Record<string, unknown>, V = Record<string, unknown>> extends DocumentNode {
  __apiType?: (variables: V) => R;
}

export interface GraphqlError<Code extends string = string> {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: { code?: Code; [key: string]: unknown };
}

export interface GraphqlResult<TData, Code extends string = string> {
  data?: TData | null;
  errors?: GraphqlError<Code>[];
  extensions?: Record<string, unknown>;
}

/** The errors of a request that produced no data, each with its code: what `data()` and subscriptions reject with. */
export class GraphqlRequestError<Code extends string = string> extends Error {
  override readonly name = "GraphqlRequestError";
  constructor(readonly errors: GraphqlError<Code>[]) {
    super(errors.map((e) => `${e.extensions?.code ?? "ERROR"}: ${e.message}`).join("; "));
  }
}

export type { Token } from "../token.js";

export interface ReconnectOptions {
  /** connection attempts in a row before the subscriptions fail (default 10); each successful connection starts the count again */
  attempts?: number;
  /** waits before retry number `retries` (counted from 0); default: the transport's randomised exponential backoff */
  wait?: (retries: number) => Promise<void>;
}

export interface GraphqlClientOptions {
  /** the GraphQL endpoint, e.g. https://api.example.com/graphql (relative URLs resolve against the page's) */
  url: string;
  /** a bearer JWT, or a function returning the current one: sent as Authorization on HTTP and SSE, as connection_init { authorization } on graphql-ws */
  token?: Token;
  fetch?: typeof fetch;
  /**
   * How a document with a persisted hash (graphql-codegen's client preset puts one in each) is sent:
   * - "apq" (default): only the hash, as Apollo's automatic persisted queries; when the server answers
   *   PERSISTED_QUERY_NOT_FOUND the text follows with its own hash, once, and that hash is used from then on;
   * - "documentId": only `documentId` (the client preset's convention), no fallback: for servers that run only
   *   persisted documents;
   * - false: the text, always.
   */
  persisted?: "apq" | "documentId" | false;
  /** hashed queries (not mutations) over GET, which caches and CDNs can keep; the text always goes by POST */
  getForHashedQueries?: boolean;
  /** how subscriptions travel: graphql-ws (default) or graphql-sse in its distinct connections mode */
  transport?: "ws" | "sse";
  /** the graphql-ws endpoint; default: `url` with the ws(s) scheme */
  wsUrl?: string;
  /** the graphql-sse endpoint; default: `${url}/stream` */
  sseUrl?: string;
  /** reconnecting after a lost connection and subscribing again (on unless false) */
  reconnect?: false | ReconnectOptions;
  /** told when a subscription transport connects, `retry` after a lost connection (with SSE each subscription connects on its own) */
  on?: { connecting?: (retry: boolean) => void; connected?: (retry: boolean) => void };
}

/** Variables may be left out only when the operation declares none that are required. */
export type VariablesArg<V> = {} extends V ? [variables?: V] : [variables: V];

export interface GraphqlClient<Code extends string = string> {
  /** The whole response: data beside errors (a failing nullable field yields both). */
  request<R, V>(document: TypedDocument<R, V>, ...variables: VariablesArg<V>): Promise<GraphqlResult<R, Code>>;
  /** Just the data; any error rejects with GraphqlRequestError carrying every error and its code. */
  data<R, V>(document: TypedDocument<R, V>, ...variables: VariablesArg<V>): Promise<R>;
  /**
   * Each event of a subscription; `return()` (or leaving a for-await loop) ends it on the server too. A refused
   * subscription rejects with GraphqlRequestError; a connection lost for good, with the transport's error.
   */
  subscribe<R, V>(
    document: TypedDocument<R, V>,
    ...variables: VariablesArg<V>
  ): AsyncIterableIterator<GraphqlResult<R, Code>>;
  /** Ends every subscription and closes the transports' connections. */
  close(): Promise<void>;
}

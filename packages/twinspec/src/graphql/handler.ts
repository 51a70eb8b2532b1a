// GraphQL over HTTP without a framework: a request (method, URL, headers, body text, caller) in, `[body, init]` out,
// as graphql-http's own handler. What GraphQL over HTTP decides is decided here, once, for GET and POST /graphql:
// the media type (406), the parameters (405, 415, 400 BAD_REQUEST saying what is wrong), persisted documents
// (documentId, APQ: persisted.ts), limits and validation (operation.ts), the rate limit (429 with Retry-After, and
// the RateLimit fields on every answer after it), mutations over GET (405 + Allow: POST), the status of a request
// error (400 for application/graphql-response+json, 200 for application/json), Retry-After when the database is
// down, and GraphiQL for a browser. graphql-sse's endpoint (sse.ts) takes its parameters and its prepared operation
// from here too. koa.ts serves it on Koa; test/graphql/audit.test.ts runs graphql-http's audit against it.
import type { IncomingHttpHeaders } from "node:http";
import { getOperationAST, GraphQLError, type ExecutionArgs, type ExecutionResult } from "graphql";
import { callerOf, rateLimitHeaders, type Decision } from "../rate-limit/fields.js";
import { rateLimitedResponse } from "./rate-limit.js";
import type { Caller, GraphqlContext } from "./context.js";
import { formatError } from "./errors.js";
import { graphiqlPage, wantsHtml } from "./graphiql.js";
import { JsonProblem, parseJson } from "../runtime/json.js";
import { PROBLEMS } from "../runtime/problems.js";
import type { GraphqlRuntime } from "./runtime.js";

export type MediaType = "application/graphql-response+json" | "application/json";

/** graphql-http's Response: the body (null: none) and how to send it. */
export type GraphqlResponse = readonly [
  body: string | null,
  init: { readonly status: number; readonly statusText: string; readonly headers?: Readonly<Record<string, string>> },
];
/** What `handle` answers: a GraphqlResponse, or a large result as its bytes (asSent). */
export type GraphqlAnswer = readonly [body: string | Buffer | null, init: GraphqlResponse[1]];

export interface GraphqlRequest {
  method: string;
  /** the path with its query string */
  url: string;
  headers: IncomingHttpHeaders;
  /** a POST's body as text, read by the adapter within its size limit */
  body?: string;
  /** who is calling: the operation's context, and whose rate limit it spends */
  caller: Caller;
  /** the client's address: whose rate limit a caller without a principal spends (asked only then) */
  address(): string | undefined;
}

/** The request's GraphQL parameters, checked, with a persisted document's text as `query`. */
export interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

/** An operation ready to run, and what it spent. */
export interface Ready {
  args: ExecutionArgs & { contextValue: GraphqlContext };
  spent?: Decision;
}

export const isResponse = (value: unknown): value is GraphqlResponse => Array.isArray(value);

const GRAPHQL_RESPONSE = "application/graphql-response+json";

/** graphql-http's choice of response media type for an Accept header (null: none acceptable → 406). */
export function acceptedMediaType(accept: string | undefined): MediaType | null {
  for (const range of (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",")) {
    const [mediaType, ...params] = range.split(";");
    const charset = params.find((p) => p.includes("charset=")) || "charset=utf-8";
    if (mediaType === GRAPHQL_RESPONSE && charset === "charset=utf-8") return GRAPHQL_RESPONSE;
    if (
      (mediaType === "application/json" || mediaType === "application/*" || mediaType === "*/*") &&
      (charset === "charset=utf-8" || charset === "charset=utf8")
    )
      return "application/json";
  }
  return null;
}

/** graphql-http's rule for a POST body: JSON in UTF-8 (415 otherwise). */
function isJsonBody(contentType: string): boolean {
  const [mediaType, charset = "charset=utf-8"] = contentType.replace(/\s/g, "").toLowerCase().split(";");
  return mediaType === "application/json" && charset === "charset=utf-8";
}

const CONTENT_TYPE = {
  "application/json": "application/json; charset=utf-8",
  "application/graphql-response+json": "application/graphql-response+json; charset=utf-8",
} as const;

/** The content type of `media`, with the RateLimit fields once the request has spent from a budget. */
function headersOf(media: MediaType, spent: Decision | undefined): Record<string, string> {
  if (!spent) return { "content-type": CONTENT_TYPE[media] };
  // Added to the fields' own object rather than spread into another: one object per answer.
  const headers = rateLimitHeaders(spent);
  headers["content-type"] = CONTENT_TYPE[media];
  return headers;
}

/** Results of this many characters or more are answered as bytes. */
const LARGE = 8192;

/**
 * A large result's text as the bytes sent. The answer outlives its operation's reads in the promise `handle` returns,
 * which was made before them: when that promise has reached V8's old generation by then (the operation waited for a
 * pooled database connection), what it resolves with lives until the next full collection. Bytes are kept off the
 * heap, and the text they were made from dies young.
 */
const asSent = (text: string): string | Buffer => (text.length >= LARGE ? Buffer.from(text) : text);

/** As graphql-http serializes: errors that are not GraphQL errors keep only their message. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof Error && !(value instanceof GraphQLError) ? { message: value.message } : value;
}

/** The status of a request error (nothing ran): GraphQL over HTTP's by media type, unless the transport sets one. */
const requestErrorStatus = (media: MediaType, status?: number) => status ?? (media === "application/json" ? 200 : 400);

const OK = "OK";
const BAD_REQUEST = "Bad Request";

/** Errors found before execution (persisted documents, parsing, validation, limits) as the whole answer. */
function errorsResponse(
  errors: readonly GraphQLError[],
  media: MediaType,
  status: number,
  spent?: Decision,
): GraphqlResponse {
  return [
    JSON.stringify({ errors: errors.map(formatError) }, replacer),
    { status, statusText: status === 200 ? OK : BAD_REQUEST, headers: headersOf(media, spent) },
  ];
}

/** Why a request is refused before its document is read: what to fix, coded (BAD_REQUEST unless a limit says more). */
class Refusal {
  constructor(
    readonly message: string,
    readonly code = "BAD_REQUEST",
    readonly limit?: number,
  ) {}
}

/** A refused request: `status` (400 by default) whatever the media type, with a coded error that says what to fix. */
const refused = (
  { message, code, limit }: Refusal,
  media: MediaType,
  status = 400,
  statusText = BAD_REQUEST,
  headers: Record<string, string> = {},
): GraphqlResponse => [
  JSON.stringify({ errors: [{ message, extensions: limit === undefined ? { code } : { code, limit } }] }),
  { status, statusText, headers: { ...headers, "content-type": CONTENT_TYPE[media] } },
];
const malformed = (message: string, media: MediaType) => refused(new Refusal(message), media);

const ACCEPTED = `${CONTENT_TYPE[GRAPHQL_RESPONSE]}, ${CONTENT_TYPE["application/json"]}`;
// Their bodies say what to send; the 406's is JSON, as no type the client accepts can be answered.
/** A refusal whose code, status and status text are a catalog entry's (runtime/problems.ts). */
const refusedAs = (
  key: "not_acceptable" | "method_not_allowed" | "unsupported_media_type",
  message: string,
  media: MediaType,
  headers?: Record<string, string>,
) => {
  const { code, status, title } = PROBLEMS[key];
  return refused(new Refusal(message, code), media, status, title, headers);
};
const NOT_ACCEPTABLE = refusedAs(
  "not_acceptable",
  `No media type the Accept header allows can be answered; accept ${ACCEPTED}.`,
  "application/json",
  { accept: ACCEPTED },
);
const METHOD_NOT_ALLOWED = (media: MediaType) =>
  refusedAs("method_not_allowed", "GraphQL is served over GET and POST; send the operation with one of them.", media, {
    allow: "GET, POST",
  });
const UNSUPPORTED_MEDIA_TYPE = (media: MediaType) =>
  refusedAs(
    "unsupported_media_type",
    'Send the POST body as JSON, with Content-Type: application/json (charset utf-8), such as {"query": "{ __typename }"}.',
    media,
  );
const GRAPHIQL: GraphqlResponse = [
  graphiqlPage,
  { status: 200, statusText: OK, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } },
];

/** 405 + Allow: POST (GraphQL over HTTP), as a coded error in the negotiated media type. */
function mutationOverGet(media: MediaType, spent: Decision | undefined): GraphqlResponse {
  const { code, status, title } = PROBLEMS.method_not_allowed;
  const errors = [{ message: "Mutations are not allowed over GET; send them with POST.", extensions: { code } }];
  return [
    JSON.stringify({ errors }),
    { status, statusText: title, headers: { ...headersOf(media, spent), allow: "POST" } },
  ];
}

const NO_BODY = 'The request has no body; send a JSON object such as {"query": "{ __typename }"}.';
const NOT_AN_OBJECT = 'The request body must be a JSON object such as {"query": "{ __typename }"}.';
const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);
const isMap = (value: unknown) => typeof value === "object" && !Array.isArray(value);

/** What is wrong with the parameters (in graphql-http's order), or undefined. */
function paramsProblem(p: Record<string, unknown>): string | undefined {
  if (p.query === undefined || p.query === null)
    return "The request has no `query`; send the GraphQL document as a string in `query`.";
  if (typeof p.query !== "string")
    return `\`query\` must be a string holding the GraphQL document; got ${kindOf(p.query)}.`;
  if (p.variables != null && !isMap(p.variables))
    return `\`variables\` must be an object (or null); got ${kindOf(p.variables)}.`;
  if (p.operationName != null && typeof p.operationName !== "string")
    return `\`operationName\` must be a string (or null); got ${kindOf(p.operationName)}.`;
  if (p.extensions != null && !isMap(p.extensions))
    return `\`extensions\` must be an object (or null); got ${kindOf(p.extensions)}.`;
  return undefined;
}

/** A POST body as the object it must be, or what is wrong with it. */
function bodyParams(text: string | undefined): Record<string, unknown> | Refusal {
  if (!text) return new Refusal(NO_BODY);
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (error) {
    return badJson(error as JsonProblem, "The request body");
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return new Refusal(NOT_AN_OBJECT);
  return data as Record<string, unknown>;
}

/** A GET's parameters from its query string (graphql-http's reading, and the client preset's documentId), or what is wrong. */
function searchParams(url: string): Record<string, unknown> | Refusal {
  const search = new URLSearchParams(url.split("?")[1]);
  const json = (name: string) => {
    const text = search.get(name);
    return text ? parseJson(text) : undefined;
  };
  let name = "variables";
  try {
    const variables = json(name);
    name = "extensions";
    return {
      query: search.get("query") ?? undefined,
      operationName: search.get("operationName") ?? undefined,
      variables,
      extensions: json(name),
      documentId: search.get("documentId") ?? undefined,
    };
  } catch (error) {
    return badJson(error as JsonProblem, `The URL's \`${name}\` parameter`);
  }
}

/** What is wrong with a JSON text the client sent (`what`): a BAD_REQUEST message, or BAD_USER_INPUT past a limit or for U+0000. */
function badJson(problem: JsonProblem, what: string): Refusal {
  if (problem.reason === "syntax") return new Refusal(`${what} is not valid JSON.`);
  return new Refusal(
    `${what} is ${problem.message}.`,
    problem.reason === "depth" || problem.reason === "nul" ? "BAD_USER_INPUT" : "BAD_REQUEST",
    problem.limit,
  );
}

/** `graphiql`: a browser's GET gets GraphiQL's page (default); false: the GraphQL-over-HTTP answer, as any client. */
export function createGraphqlHandler(runtime: GraphqlRuntime, options: { graphiql?: boolean } = {}) {
  const graphiql = options.graphiql ?? true;
  /**
   * The request's parameters, its persisted document resolved, or the answer refusing them. `errorStatus`: the
   * status of a persisted document's refusal when the transport has its own (graphql-sse: 400).
   */
  function params(request: GraphqlRequest, media: MediaType, errorStatus?: number): Params | GraphqlResponse {
    const method = request.method;
    let sent: Record<string, unknown> | Refusal;
    if (method === "POST") {
      if (!isJsonBody(request.headers["content-type"] ?? "")) return UNSUPPORTED_MEDIA_TYPE(media);
      sent = bodyParams(request.body);
    } else if (method === "GET") sent = searchParams(request.url);
    else return METHOD_NOT_ALLOWED(media);
    if (sent instanceof Refusal) return refused(sent, media);
    const resolved = runtime.persisted.resolve(sent);
    if (resolved?.errors) return errorsResponse(resolved.errors, media, requestErrorStatus(media, errorStatus));
    if (resolved) sent = { ...sent, query: resolved.query };
    const problem = paramsProblem(sent);
    return problem ? malformed(problem, media) : (sent as unknown as Params);
  }

  /**
   * The operation prepared (parsed and validated within the limits, cached by text) and charged to its caller's
   * rate limit, or the answer refusing it.
   */
  function prepare(
    request: GraphqlRequest,
    { query, variables, operationName }: Params,
    media: MediaType,
    errorStatus?: number,
  ): Ready | GraphqlResponse {
    const prepared = runtime.prepare(query, variables);
    const spent = runtime.charge(
      callerOf(request.caller.principal, () => request.address()),
      prepared,
      operationName,
    );
    if (spent && !spent.allowed) return rateLimitedResponse(spent, media);
    if (prepared.errors) return errorsResponse(prepared.errors, media, requestErrorStatus(media, errorStatus), spent);
    const args: Ready["args"] = {
      schema: runtime.schema,
      document: prepared.document,
      operationName,
      variableValues: variables,
      contextValue: runtime.context(request.caller),
    };
    return { args, spent };
  }

  /** The executed operation's answer: written by its compiled serializer unless there are errors. */
  function answer(result: ExecutionResult, { args, spent }: Ready, media: MediaType): GraphqlAnswer {
    const headers = headersOf(media, spent);
    if (!result.errors)
      return [
        asSent(runtime.serialize(args.document, args.operationName, result)),
        { status: 200, statusText: OK, headers },
      ];
    const errors = result.errors.map(formatError);
    // The database could not serve some field now: tell when to retry, as a REST 503 does.
    const down = errors.find((e) => (e as GraphQLError).extensions?.code === "SERVICE_UNAVAILABLE") as
      | GraphQLError
      | undefined;
    if (down) headers["Retry-After"] = String((down.extensions.retryAfterSeconds as number | undefined) ?? 1);
    // No `data` at all: a request error (variable coercion), nothing ran.
    const status = "data" in result ? 200 : requestErrorStatus(media);
    return [
      JSON.stringify({ ...result, errors }, replacer),
      { status, statusText: status === 200 ? OK : BAD_REQUEST, headers },
    ];
  }

  /** GET and POST /graphql. */
  async function handle(request: GraphqlRequest): Promise<GraphqlAnswer> {
    const accept = request.headers.accept;
    const method = request.method;
    if (graphiql && (method === "GET" || method === "HEAD") && accept && wantsHtml(accept)) return GRAPHIQL;
    const media = acceptedMediaType(accept);
    if (!media) return NOT_ACCEPTABLE;
    const sent = params(request, media);
    if (isResponse(sent)) return sent;
    const ready = prepare(request, sent, media);
    if (isResponse(ready)) return ready;
    const { args, spent } = ready;
    const operation = getOperationAST(args.document, args.operationName)?.operation;
    const status = requestErrorStatus(media);
    if (!operation) return errorsResponse([new GraphQLError("Unable to detect operation AST")], media, status, spent);
    // Subscriptions stream over graphql-sse (/graphql/stream) and graphql-ws.
    if (operation === "subscription")
      return errorsResponse([new GraphQLError("Subscriptions are not supported")], media, status, spent);
    if (operation === "mutation" && method === "GET") return mutationOverGet(media, spent);
    return answer(await runtime.execute(args), ready, media);
  }

  return { handle, params, prepare };
}

// The common GraphQL-over-HTTP request answered without graphql-http's general machinery: a POST of a JSON object
// with a `query` string (no persisted id, no extensions) whose document the preparer has already parsed and
// validated, for a query or a mutation. Everything else — GET, other media types, persisted documents, documents with
// errors, subscriptions — goes to graphql-http. What it answers is what graphql-http answers for the same
// request (media type negotiation, status, body): test/graphql/audit.test.ts runs graphql-http's own audit against
// the server, and test/graphql/fast.test.ts compares both paths.
import { getOperationAST, GraphQLError, type ExecutionResult } from "graphql";
import type { Context } from "koa";
import { header, setHeaders } from "../http/headers.js";
import { callerOf, setRateLimitHeaders } from "../rate-limit/fields.js";
import { rateLimitedResponse } from "../rate-limit/graphql.js";
import { formatError } from "./errors.js";
import { Lru } from "./lru.js";
import type { GraphqlRuntime } from "./runtime.js";

/** graphql-http's choice of response media type for an Accept header (null: none acceptable). */
export function acceptedMediaType(accept: string | undefined): "application/graphql-response+json" | "application/json" | null {
  for (const range of (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",")) {
    const [mediaType, ...params] = range.split(";");
    const charset = params.find((p) => p.includes("charset=")) || "charset=utf-8";
    if (mediaType === "application/graphql-response+json" && charset === "charset=utf-8") return "application/graphql-response+json";
    if ((mediaType === "application/json" || mediaType === "application/*" || mediaType === "*/*") && (charset === "charset=utf-8" || charset === "charset=utf8")) return "application/json";
  }
  return null;
}

/** acceptedMediaType by Accept header: a client sends the same one every time, and the answer depends on it alone. */
const mediaTypes = new Map<string, ReturnType<typeof acceptedMediaType>>();

function mediaTypeFor(accept: string): ReturnType<typeof acceptedMediaType> {
  let media = mediaTypes.get(accept);
  if (media === undefined) {
    media = acceptedMediaType(accept || undefined);
    // Bounded: the header is the client's to choose.
    if (accept.length <= 256) {
      if (mediaTypes.size >= 64) mediaTypes.clear();
      mediaTypes.set(accept, media);
    }
  }
  return media;
}

/** As graphql-http serializes: errors that are not GraphQL errors keep only their message. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof Error && !(value instanceof GraphQLError) ? { message: value.message } : value;
}

const CONTENT_TYPE = {
  "application/json": "application/json; charset=utf-8",
  "application/graphql-response+json": "application/graphql-response+json; charset=utf-8",
} as const;

interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** The body's parameters, if it has the common shape: a query string, no persisted id, no extensions. */
function commonParams(text: string): Params | undefined {
  let params: unknown;
  try {
    params = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!params || typeof params !== "object" || Array.isArray(params)) return undefined;
  const { query, variables, operationName, extensions, documentId } = params as Record<string, unknown>;
  if (typeof query !== "string" || extensions !== undefined || documentId !== undefined) return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return undefined;
  return params as Params;
}

/**
 * Parsed bodies without variables, by text: clients send the same few bodies again and again, and nothing changes
 * such parameters once parsed (variables, which an operation's arguments could reach, are absent).
 */
const bodies = new Lru<string, Params>(256);
const MAX_CACHED_BODY = 4096;

function paramsOf(text: string): Params | undefined {
  const cacheable = text.length <= MAX_CACHED_BODY;
  let params = cacheable ? bodies.get(text) : undefined;
  if (params) return params;
  params = commonParams(text);
  if (params && cacheable && (params.variables === undefined || params.variables === null)) bodies.set(text, params);
  return params;
}

const JSON_MEDIA = /^application\/json\s*(;|$)/i;

/**
 * Answers the request if it is the common case (true), or leaves it untouched for graphql-http (false). The body
 * has been read into ctx.request.body as text.
 */
export async function answerCommonCase(ctx: Context, runtime: GraphqlRuntime): Promise<boolean> {
  if (runtime.persisted.only || !JSON_MEDIA.test(header(ctx, "content-type") ?? "")) return false;
  const accept = header(ctx, "accept") ?? "";
  const media = mediaTypeFor(accept);
  const text = (ctx.request as { body?: unknown }).body;
  if (!media || typeof text !== "string") return false;
  const params = paramsOf(text);
  if (!params) return false;
  const { query, variables, operationName } = params;
  const prepared = runtime.prepare(query, variables);
  if (!prepared.document) return false;
  const operation = getOperationAST(prepared.document, operationName ?? undefined);
  if (!operation || operation.operation === "subscription") return false;

  const state = ctx.state;
  // Charged here, once it is certain this path answers (graphql-http charges what it answers itself).
  const spent = runtime.charge(callerOf(state.principal, () => ctx.ip), prepared, operationName);
  if (spent) {
    setRateLimitHeaders(ctx.res, spent);
    if (!spent.allowed) {
      const [body, init] = rateLimitedResponse(spent, accept);
      ctx.status = init.status!;
      setHeaders(ctx, init.headers as Record<string, string>);
      ctx.body = body;
      return true;
    }
  }
  const result: ExecutionResult = await runtime.execute({
    schema: runtime.schema,
    document: prepared.document,
    operationName: operationName ?? undefined,
    variableValues: variables ?? undefined,
    // ctx.state is the caller as it stands (principal, requestId, log): its log is read when something is logged.
    contextValue: runtime.context(state),
  });
  const errors = result.errors?.map(formatError);
  // The database could not serve some field now: tell when to retry, as a REST 503 does.
  const down = errors?.find((e) => (e as GraphQLError).extensions?.code === "SERVICE_UNAVAILABLE") as GraphQLError | undefined;
  if (down) ctx.set("Retry-After", String((down.extensions.retryAfterSeconds as number | undefined) ?? 1));
  // No `data` at all = a request error (variable coercion): 400 for application/graphql-response+json.
  const requestError = !("data" in result) && !accept.includes("application/json");
  ctx.status = requestError ? 400 : 200;
  ctx.res.setHeader("Content-Type", CONTENT_TYPE[requestError ? "application/graphql-response+json" : media]);
  // The replacer only where an error may hide a plain Error; without one, the operation's compiled serializer.
  ctx.body = errors ? JSON.stringify({ ...result, errors }, replacer) : runtime.serialize(prepared.document, operationName, result);
  return true;
}

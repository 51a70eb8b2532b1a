// GraphQL over HTTP at /graphql through graphql-http's Koa adapter: GET for queries, POST for all; mutations over
// GET → 405 + Allow: POST. A browser asking for HTML gets GraphiQL instead. A request may name a persisted
// document (documentId, or APQ's extensions.persistedQuery) instead of sending its text: see persisted.ts. A
// malformed request answers 400 BAD_REQUEST saying what is wrong.
import type { IncomingMessage } from "node:http";
import type { Context, Middleware } from "koa";
import { getOperationAST, type GraphQLError } from "graphql";
import { parseRequestParams, type Request, type Response } from "graphql-http";
import { createHandler } from "graphql-http/lib/use/koa";
import { decodeText, readBytes } from "../http/body.js";
import { callerOf, setRateLimitHeaders } from "../rate-limit/fields.js";
import { rateLimitedResponse } from "../rate-limit/graphql.js";
import type { GraphqlContext } from "./context.js";
import { formatError } from "./errors.js";
import { answerCommonCase } from "./fast.js";
import { graphiqlPage, wantsHtml } from "./graphiql.js";
import type { GraphqlRuntime } from "./runtime.js";

export function graphqlHttp(runtime: GraphqlRuntime, options: { bodyLimit?: number } = {}): Middleware {
  const contexts = new WeakMap<IncomingMessage, Context>();
  // A persisted document that could not be resolved: answered from onSubscribe, where graphql-http shapes errors.
  const unresolved = new WeakMap<object, readonly GraphQLError[]>();
  const handler = createHandler<GraphqlContext>({
    schema: runtime.schema,
    parseRequestParams: async (req) => {
      // Most requests carry their text and no persisted id: graphql-http parses those itself.
      if (!runtime.persisted.only && !(await mayNameDocument(req))) return explainedParams(req);
      const given = await requestParams(req);
      if (!given) return explainedParams(req); // graphql-http parses (and refuses) it itself
      const resolved = runtime.persisted.resolve(given.params);
      if (resolved?.errors) {
        unresolved.set(req, resolved.errors);
        return { query: "" };
      }
      return explainedParams(resolved ? withQuery(given, resolved.query) : given.req);
    },
    onSubscribe: (req, params) => {
      const failed = unresolved.get(req);
      if (failed) return failed;
      const prepared = runtime.prepare(params.query, params.variables);
      const ctx = contexts.get(req.raw);
      const spent = runtime.charge(callerOf(ctx?.state.principal, () => ctx?.ip), prepared, params.operationName);
      if (spent) {
        if (ctx) setRateLimitHeaders(ctx.res, spent);
        if (!spent.allowed) return rateLimitedResponse(spent, ctx?.get("Accept") ?? "");
      }
      if (prepared.errors) return prepared.errors;
      // graphql-http would refuse it too, but as text/plain and without a code.
      if (req.method === "GET" && getOperationAST(prepared.document, params.operationName)?.operation === "mutation") return mutationOverGet(ctx?.get("Accept") ?? "");
      return {
        schema: runtime.schema,
        document: prepared.document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: runtime.context({ principal: ctx?.state.principal, requestId: ctx?.state.requestId, log: () => ctx?.state.log }),
      };
    },
    execute: runtime.execute,
    onOperation: (req, _args, result) => {
      const ctx = contexts.get(req.raw);
      // The database could not serve some field now: tell when to retry, as a REST 503 does.
      const down = result.errors?.find((e) => e.extensions?.code === "SERVICE_UNAVAILABLE");
      if (down && ctx) ctx.set("Retry-After", String((down.extensions.retryAfterSeconds as number | undefined) ?? 1));
      // No `data` at all = a request error (variable coercion): GraphQL over HTTP wants a 4xx for
      // application/graphql-response+json, where graphql-http would answer 200.
      if (!("data" in result) && ctx && !ctx.get("Accept").includes("application/json")) {
        const body = JSON.stringify({ errors: (result.errors ?? []).map(formatError) });
        return [body, { status: 400, statusText: "Bad Request", headers: { "content-type": "application/graphql-response+json; charset=utf-8" } }];
      }
    },
    formatError,
  });
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  return async (ctx, next) => {
    if ((ctx.method === "GET" || ctx.method === "HEAD") && wantsHtml(ctx.get("Accept"))) {
      ctx.type = "text/html; charset=utf-8";
      ctx.set("Cache-Control", "no-cache");
      ctx.body = graphiqlPage;
      return;
    }
    if (ctx.method === "POST") {
      await readBody(ctx, bodyLimit);
      if (await answerCommonCase(ctx, runtime)) return;
    }
    contexts.set(ctx.req, ctx);
    await handler(ctx, next);
  };
}

/** 405 + Allow: POST (GraphQL over HTTP), with a coded error in the media type the client accepts. */
function mutationOverGet(accept: string): Response {
  const type = /application\/graphql-response\+json/i.test(accept) ? "application/graphql-response+json" : "application/json";
  const errors = [{ message: "Mutations are not allowed over GET; send them with POST.", extensions: { code: "METHOD_NOT_ALLOWED" } }];
  return [JSON.stringify({ errors }), { status: 405, statusText: "Method Not Allowed", headers: { allow: "POST", "content-type": `${type}; charset=utf-8` } }];
}

const NOT_AN_OBJECT = 'The request body must be a JSON object such as {"query": "{ __typename }"}.';

/** What graphql-http's messages about a malformed request mean, said so that the caller knows what to fix. */
const MALFORMED: Record<string, (params: Record<string, unknown> | undefined, raw: unknown) => string> = {
  "Missing body": () => 'The request has no body; send a JSON object such as {"query": "{ __typename }"}.',
  "Unparsable JSON body": (_, raw) => (raw === "" ? 'The request has no body; send a JSON object such as {"query": "{ __typename }"}.' : "The request body is not valid JSON."),
  "JSON body must be an object": () => NOT_AN_OBJECT,
  "Unparsable URL": () => "The URL's `variables` or `extensions` parameter is not valid JSON.",
  "Missing query": (p) => (Array.isArray(p) ? NOT_AN_OBJECT : "The request has no `query`; send the GraphQL document as a string in `query`."),
  "Invalid query": (p) => `\`query\` must be a string holding the GraphQL document; got ${kindOf(p?.query)}.`,
  "Invalid variables": (p) => `\`variables\` must be an object (or null); got ${kindOf(p?.variables)}.`,
  "Invalid operationName": (p) => `\`operationName\` must be a string (or null); got ${kindOf(p?.operationName)}.`,
  "Invalid extensions": (p) => `\`extensions\` must be an object (or null); got ${kindOf(p?.extensions)}.`,
};

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);

/**
 * graphql-http's own request parsing, with its refusals (thrown as plain errors, which the error formatter would
 * mask) answered as 400 with a BAD_REQUEST error that says what is wrong.
 */
async function explainedParams(req: Request<IncomingMessage, unknown>) {
  try {
    return await parseRequestParams(req);
  } catch (error) {
    return explain(error, req);
  }
}

/**
 * For other transports of the same request shape (graphql-sse): the 400 answer for a malformed request, or
 * undefined when graphql-http finds nothing wrong with its parameters.
 */
export async function malformedRequest(req: Request<IncomingMessage, unknown>): Promise<Response | undefined> {
  try {
    await parseRequestParams(req);
    return undefined;
  } catch (error) {
    return explain(error, req);
  }
}

async function explain(error: unknown, req: Request<IncomingMessage, unknown>): Promise<Response> {
  const explainer = MALFORMED[(error as Error).message];
  if (!explainer) throw error;
  const raw = typeof req.body === "function" ? await req.body() : req.body;
  const message = explainer(sentParams(req, raw), raw);
  const type = /application\/graphql-response\+json/i.test(String((req.headers as Record<string, string | string[] | undefined>).accept ?? "")) ? "application/graphql-response+json" : "application/json";
  return [
    JSON.stringify({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] }),
    { status: 400, statusText: "Bad Request", headers: { "content-type": `${type}; charset=utf-8` } },
  ];
}

/** The request's parameters as sent (POST body object, or GET search parameters), to name what was wrong. */
function sentParams(req: Request<IncomingMessage, unknown>, raw: unknown): Record<string, unknown> | undefined {
  if (req.method === "GET") return Object.fromEntries(new URLSearchParams(req.url.split("?")[1] ?? ""));
  try {
    const body = typeof raw === "string" ? JSON.parse(raw) : raw;
    return body && typeof body === "object" ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

type Req = Request<IncomingMessage, unknown>;
type Given = { params: Record<string, unknown>; req: Req; search?: URLSearchParams };

const bodyOf = async (req: Req) => (typeof req.body === "function" ? await req.body() : req.body);

/** Whether the request may name a persisted document: a cheap look for the two parameter names. */
async function mayNameDocument(req: Req): Promise<boolean> {
  const text = req.method === "POST" ? await bodyOf(req) : req.url;
  return typeof text !== "string" || text.includes("persistedQuery") || text.includes("documentId");
}

/**
 * The request's parameters as sent (the JSON body parsed once, here: graphql-http then takes the parsed object).
 * Undefined when it is neither a JSON object nor a query string.
 */
async function requestParams(req: Req): Promise<Given | undefined> {
  if (req.method === "POST") {
    const body = await bodyOf(req);
    let data: unknown;
    try {
      data = typeof body === "string" ? JSON.parse(body) : body;
    } catch {
      return undefined;
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
    const params = data as Record<string, unknown>;
    return { params, req: { ...req, body: params } };
  }
  if (req.method === "GET") {
    const search = new URLSearchParams(req.url.split("?")[1] ?? "");
    let extensions: unknown;
    try {
      extensions = search.has("extensions") ? JSON.parse(search.get("extensions")!) : undefined;
    } catch {
      return undefined;
    }
    return { params: { query: search.get("query") ?? undefined, documentId: search.get("documentId") ?? undefined, extensions }, req, search };
  }
  return undefined;
}

/** The request as graphql-http should see it: with the persisted document's text as its query. */
function withQuery({ params, req, search }: Given, query: string): Req {
  if (!search) return { ...req, body: { ...params, query } };
  search.set("query", query);
  return { ...req, url: `${req.url.split("?")[0]}?${search}` };
}

/** GraphQL's 413 detail. */
const tooLarge = (limit: number) => `The request body is larger than ${limit} bytes.`;

/**
 * Reads the body as text within the limit (413 beyond, 400 when incomplete); graphql-http then takes it from
 * ctx.request.body. Always UTF-8, whatever charset the Content-Type declares: GraphQL over HTTP's JSON is UTF-8.
 */
export async function readBody(ctx: Context, limit: number): Promise<void> {
  (ctx.request as { body?: unknown }).body = decodeText(await readBytes(ctx.req, limit, ctx.req.headers["content-length"], tooLarge));
}

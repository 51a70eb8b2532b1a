// GraphQL over HTTP at /graphql through graphql-http's Koa adapter: GET for queries, POST for all; mutations over
// GET → 405 + Allow: POST. A browser asking for HTML gets GraphiQL instead. A request may name a persisted
// document (documentId, or APQ's extensions.persistedQuery) instead of sending its text: see persisted.ts.
import type { IncomingMessage } from "node:http";
import type { Context, Middleware } from "koa";
import getRawBody from "raw-body";
import type { GraphQLError } from "graphql";
import { parseRequestParams, type Request as GraphqlHttpRequest } from "graphql-http";
import { createHandler } from "graphql-http/lib/use/koa";
import { httpError } from "../http/problem.js";
import type { GraphqlContext } from "./context.js";
import { formatError } from "./errors.js";
import { graphiqlPage, wantsHtml } from "./graphiql.js";
import type { GraphqlRuntime } from "./runtime.js";

export function graphqlHttp(runtime: GraphqlRuntime, options: { bodyLimit?: number } = {}): Middleware {
  const contexts = new WeakMap<IncomingMessage, Context>();
  // A persisted document that could not be resolved: answered from onSubscribe, where graphql-http shapes errors.
  const unresolved = new WeakMap<object, readonly GraphQLError[]>();
  const handler = createHandler<GraphqlContext>({
    schema: runtime.schema,
    parseRequestParams: async (req) => {
      // Most requests carry their text and no persisted id: graphql-http parses those itself, as before.
      if (!runtime.persisted.only && !(await mayNameDocument(req))) return undefined;
      const given = await requestParams(req);
      if (!given) return undefined; // graphql-http parses (and refuses) it itself
      const resolved = runtime.persisted.resolve(given.params);
      if (resolved?.errors) {
        unresolved.set(req, resolved.errors);
        return { query: "" };
      }
      return parseRequestParams(resolved ? withQuery(given, resolved.query) : given.req);
    },
    onSubscribe: (req, params) => {
      const failed = unresolved.get(req);
      if (failed) return failed;
      const prepared = runtime.prepare(params.query, params.variables);
      if (prepared.errors) return prepared.errors;
      const ctx = contexts.get(req.raw);
      return {
        schema: runtime.schema,
        document: prepared.document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: runtime.context({ principal: ctx?.state.principal, requestId: ctx?.state.requestId, log: ctx?.state.log }),
      };
    },
    execute: runtime.execute,
    onOperation: (req, _args, result) => {
      // No `data` at all = a request error (variable coercion): GraphQL over HTTP wants a 4xx for
      // application/graphql-response+json, where graphql-http would answer 200.
      const ctx = contexts.get(req.raw);
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
    if (ctx.method === "POST") await readBody(ctx, bodyLimit);
    contexts.set(ctx.req, ctx);
    await handler(ctx, next);
  };
}

type Req = GraphqlHttpRequest<IncomingMessage, unknown>;
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

/** Reads the body as text within the limit (413 beyond); graphql-http then takes it from ctx.request.body. */
export async function readBody(ctx: Context, limit: number): Promise<void> {
  try {
    (ctx.request as { body?: unknown }).body = await getRawBody(ctx.req, { limit, encoding: "utf8" });
  } catch (error) {
    if ((error as { type?: string }).type === "entity.too.large") throw httpError(413, `The request body is larger than ${limit} bytes.`);
    throw error;
  }
}

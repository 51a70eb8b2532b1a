// GraphQL over Server-Sent Events at /graphql/stream (graphql-sse, distinct connections mode): one event stream
// per operation; subscriptions stream until the client disconnects or the app closes. graphql-sse itself writes a
// keep-alive comment every 12 s.
import type { Context, Middleware } from "koa";
import type { Response } from "graphql-sse";
import { createHandler } from "graphql-sse/lib/use/koa";
import type { ExecutionResult, GraphQLError } from "graphql";
import { callerOf } from "../rate-limit/fields.js";
import { rateLimitedResponse } from "../rate-limit/graphql.js";
import type { GraphqlContext } from "./context.js";
import { formatError } from "./errors.js";
import { malformedRequest, readBody } from "./http.js";
import type { GraphqlRuntime } from "./runtime.js";

/**
 * Errors before execution: 400 with the errors as JSON, as graphql-sse answers a document it cannot parse. (An
 * ExecutionResult without `data` is not one to graphql-sse: it would answer "Unable to detect operation AST".)
 */
const refused = (errors: readonly GraphQLError[]): Response => [
  JSON.stringify({ errors: errors.map(formatError) }),
  { status: 400, statusText: "Bad Request", headers: { "content-type": "application/json; charset=utf-8" } },
];

/**
 * The client preset's `documentId`, which graphql-sse leaves out of the parameters it hands on (it keeps query,
 * variables, operationName and extensions): read from the query string or the JSON body, as GraphQL over HTTP reads it.
 */
function documentIdOf(ctx: Context): unknown {
  if (ctx.method === "GET") return ctx.query.documentId;
  const body = (ctx.request as { body?: unknown }).body;
  if (typeof body !== "string" || !body.includes("documentId")) return undefined;
  try {
    return (JSON.parse(body) as { documentId?: unknown }).documentId;
  } catch {
    return undefined; // malformedRequest has answered a body that is not JSON
  }
}

export function graphqlSse(runtime: GraphqlRuntime, options: { bodyLimit?: number } = {}): Middleware {
  const handler = createHandler<GraphqlContext>({
    schema: runtime.schema,
    // onSubscribe below has parsed and validated (cached, with our limits).
    validate: () => [],
    execute: runtime.execute,
    subscribe: runtime.subscribe,
    onSubscribe: (req, params) => {
      const resolved = runtime.persisted.resolve({ ...params, documentId: documentIdOf(req.context) });
      if (resolved?.errors) return refused(resolved.errors);
      const prepared = runtime.prepare(resolved?.query ?? params.query, params.variables);
      const ctx = req.context as unknown as Context;
      const spent = runtime.charge(callerOf(ctx.state.principal, () => ctx.ip), prepared, params.operationName);
      if (spent && !spent.allowed) return rateLimitedResponse(spent, ctx.get("Accept"));
      if (prepared.errors) return refused(prepared.errors);
      return {
        schema: runtime.schema,
        document: prepared.document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: runtime.context({ principal: ctx.state.principal, requestId: ctx.state.requestId, log: () => ctx.state.log }),
      };
    },
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: result.errors.map(formatError) } : undefined) as ExecutionResult | undefined,
  });
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  return async (ctx, next) => {
    if (ctx.method === "POST") await readBody(ctx, bodyLimit);
    // graphql-sse would read an empty body from the (already consumed) stream and hang, and answers other
    // malformed requests without a code: the same checks and answers as GraphQL over HTTP come first.
    if (ctx.method === "POST" || ctx.method === "GET") {
      const refusal = await malformedRequest({ method: ctx.method, url: ctx.url, headers: ctx.headers, body: (ctx.request as { body?: string }).body ?? null, raw: ctx.req, context: undefined });
      if (refusal) {
        const [body, init] = refusal;
        ctx.status = init.status;
        ctx.set(init.headers ?? {});
        ctx.body = body;
        return;
      }
    }
    await handler(ctx, next);
  };
}

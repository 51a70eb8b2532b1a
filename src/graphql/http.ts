// GraphQL over HTTP at /graphql through graphql-http's Koa adapter (GET for queries, POST for all).
import type { IncomingMessage } from "node:http";
import type { Context, Middleware } from "koa";
import { createHandler } from "graphql-http/lib/use/koa";
import type { GraphQLSchema } from "graphql";
import type { Services } from "../domain/services.js";
import type { GraphqlContext } from "./context.js";
import { formatError, mapExecutionErrors } from "./errors.js";
import { createLoaders } from "./loaders.js";

export function graphqlHttp(schema: GraphQLSchema, services: Services): Middleware {
  const contexts = new WeakMap<IncomingMessage, Context>();
  const handler = createHandler<GraphqlContext>({
    schema,
    context: (req) => {
      const ctx = contexts.get(req.raw);
      return { services, loaders: createLoaders(services), principal: ctx?.state.principal ?? null, requestId: String(ctx?.state.requestId ?? "") };
    },
    onOperation: (req, args, result) => {
      const ctx = contexts.get(req.raw);
      const mapped = mapExecutionErrors(result, String(ctx?.state.requestId ?? ""), ctx?.state.log);
      // No `data` at all = a request error (e.g. variable coercion): GraphQL over HTTP wants a 4xx for
      // application/graphql-response+json; graphql-http would answer 200.
      if (!("data" in mapped) && ctx && !ctx.get("Accept").includes("application/json")) {
        const body = JSON.stringify({ errors: (mapped.errors ?? []).map(formatError) });
        return [body, { status: 400, statusText: "Bad Request", headers: { "content-type": "application/graphql-response+json; charset=utf-8" } }];
      }
      return mapped;
    },
    formatError,
  });
  return async (ctx, next) => {
    contexts.set(ctx.req, ctx);
    await handler(ctx, next);
  };
}

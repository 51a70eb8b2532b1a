// GraphQL over HTTP at /graphql on Koa: reads a POST's body within the limit, hands the request to the core
// (handler.ts), which decides everything, and writes its answer.
import type { Context, Middleware } from "koa";
import { decodeText, readBytes } from "../runtime/body.js";
import { createGraphqlHandler, type GraphqlAnswer, type GraphqlRequest } from "./handler.js";
import type { GraphqlRuntime } from "./runtime.js";

export function graphqlHttp(
  runtime: GraphqlRuntime,
  options: { bodyLimit?: number; graphiql?: boolean } = {},
): Middleware {
  const { handle } = createGraphqlHandler(runtime, { graphiql: options.graphiql });
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  return async (ctx) => {
    send(
      ctx,
      await handle(graphqlRequest(ctx, ctx.req.method === "POST" ? await readGraphqlBody(ctx, bodyLimit) : undefined)),
    );
  };
}

/** The core's view of the request: ctx.state is the caller (principal, requestId, log) the caller middleware set. */
export function graphqlRequest(ctx: Context, body: string | undefined): GraphqlRequest {
  return {
    method: ctx.req.method!,
    url: ctx.req.url!,
    headers: ctx.req.headers,
    body,
    caller: ctx.state,
    address: () => ctx.ip,
  };
}

/** Writes the core's answer; headers before the body, so that Koa does not guess a content type. */
export function send(ctx: Context, [body, init]: GraphqlAnswer): void {
  const res = ctx.res;
  const headers = init.headers;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]);
  // No body at all (405, 406, 415): an empty answer, as graphql-http's Koa adapter gives.
  const response = ctx.response;
  if (body === null) response.body = null;
  response.status = init.status;
  if (body !== null) response.body = body;
}

/** GraphQL's 413 detail. */
const tooLarge = (limit: number) => `The request body is larger than ${limit} bytes.`;

/**
 * The body as text within the limit (413 beyond, 400 when incomplete). Always UTF-8, whatever charset the
 * Content-Type declares: GraphQL over HTTP's JSON is UTF-8.
 */
export async function readGraphqlBody(ctx: Context, limit: number): Promise<string> {
  return decodeText(await readBytes(ctx.req, limit, ctx.req.headers["content-length"], tooLarge));
}

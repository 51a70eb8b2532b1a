// GraphQL over Server-Sent Events at /graphql/stream (graphql-sse, distinct connections mode): one event stream
// per operation; subscriptions stream until the client disconnects or the app closes. graphql-sse itself writes a
// keep-alive comment every 12 s. The request's parameters, its persisted document, limits and rate limit are the
// GraphQL-over-HTTP core's (handler.ts); graphql-sse runs the operation and streams it. Each message made of an event
// carries its id (`id:`, the payload's extensions.eventId); a client reconnecting with `Last-Event-ID` resumes after
// it, as with the subscription's `after` argument. Streams open at once from one address are budgeted
// (connection-limits.ts): the one past the budget is refused with 429 and a coded error. The stream is the answer's
// body, written by Koa like any other, so it passes the server's edge (request id, log line, metrics, the
// application's middleware) as every request does.
import { pipeline, Readable, Transform } from "node:stream";
import type { Context, Middleware } from "koa";
import { createHandler, type Request as SseRequest } from "graphql-sse";
import type { ExecutionResult } from "graphql";
import { setRateLimitHeaders } from "../rate-limit/fields.js";
import type { GraphqlContext } from "./context.js";
import { formatError } from "./errors.js";
import { createGraphqlHandler, isResponse, type GraphqlRequest, type GraphqlResponse, type Params } from "./handler.js";
import { graphqlRequest, readGraphqlBody, send } from "./koa.js";
import type { GraphqlRuntime } from "./runtime.js";
import { AddressCounts, DEFAULT_CONNECTION_LIMITS, type Refusal } from "./connection-limits.js";

/**
 * Refusals are JSON with status 400 whatever the Accept header asks (text/event-stream): a graphql-sse client reads
 * any 200 as the stream. (An ExecutionResult without `data` is not one to graphql-sse: it would answer "Unable to
 * detect operation AST".)
 */
const MEDIA = "application/json";
const REFUSED = 400;

/** The answer to a stream past its address's budget. */
function tooManyStreams(limit: number): GraphqlResponse {
  const errors = [
    {
      message: `Too many event streams open from this address (limit ${limit}); close one before opening another.`,
      extensions: { code: "STREAM_LIMIT_EXCEEDED", limit },
    },
  ];
  return [
    JSON.stringify({ errors }),
    { status: 429, statusText: "Too Many Requests", headers: { "content-type": `${MEDIA}; charset=utf-8` } },
  ];
}

export function graphqlSse(
  runtime: GraphqlRuntime,
  options: { bodyLimit?: number; streamsPerAddress?: number; onRefused?: (limit: Refusal) => void } = {},
): Middleware {
  const perAddress = options.streamsPerAddress ?? DEFAULT_CONNECTION_LIMITS.sseStreamsPerAddress;
  const open = new AddressCounts(perAddress);
  const core = createGraphqlHandler(runtime);
  // The core's reading of each request, for onSubscribe (graphql-sse hands it the Koa context).
  const requests = new WeakMap<Context, { request: GraphqlRequest; params: Params }>();
  // The event id of each payload about to be written, in order (graphql-sse prints messages without ids).
  const ids = new WeakMap<Context, (string | undefined)[]>();
  const handler = createHandler<unknown, Context, GraphqlContext>({
    schema: runtime.schema,
    // onSubscribe below has parsed and validated (cached, with our limits).
    validate: () => [],
    execute: runtime.execute,
    subscribe: runtime.subscribe,
    onSubscribe: (req) => {
      const ctx = req.context;
      const read = requests.get(ctx);
      if (!read) throw new Error("graphql-sse asked for an operation of a request the core did not read");
      // Charged here, once graphql-sse is about to run it.
      const ready = core.prepare(read.request, read.params, MEDIA, REFUSED);
      if (isResponse(ready)) return ready;
      if (ready.spent) setRateLimitHeaders(ctx.res, ready.spent);
      return ready.args;
    },
    onNext: (_ctx, req, result) => {
      ids.get(req.context)?.push(result.extensions?.eventId as string | undefined);
      return (result.errors ? { ...result, errors: result.errors.map(formatError) } : undefined) as
        | ExecutionResult
        | undefined;
    },
  });
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  return async (ctx) => {
    // graphql-sse would read an empty body from the (already consumed) stream and hang, and answers malformed
    // requests without a code: the core reads the parameters first, as for /graphql.
    let request: SseRequest<unknown, Context>;
    if (ctx.method === "POST" || ctx.method === "GET") {
      // Counted until the response ends or the client goes: `close` comes for both.
      const address = ctx.ip;
      if (!open.take(address)) {
        options.onRefused?.("sse_streams_per_address");
        return send(ctx, tooManyStreams(perAddress));
      }
      ctx.res.once("close", () => open.release(address));
      const lastEventId = ctx.get("last-event-id");
      if (lastEventId) ctx.state.lastEventId = lastEventId;
      ids.set(ctx, []);
      const read = graphqlRequest(ctx, ctx.method === "POST" ? await readGraphqlBody(ctx, bodyLimit) : undefined);
      const params = core.params(read, MEDIA, REFUSED);
      if (isResponse(params)) return send(ctx, params);
      requests.set(ctx, { request: read, params });
      // The parameters as the core read them (a persisted document's text included): graphql-sse takes a parsed
      // body as it is, and reads a GET's from the URL it is given, where a documentId stands for the text.
      request = {
        ...sseRequest(ctx, { ...params }),
        url: ctx.method === "GET" ? `${ctx.path}?${new URLSearchParams({ query: params.query })}` : ctx.url,
      };
    } else request = sseRequest(ctx, () => readGraphqlBody(ctx, bodyLimit));
    const [body, init] = await handler(request);
    const headers = init.headers;
    if (headers) for (const name in headers) ctx.set(name, headers[name]);
    ctx.status = init.status;
    if (init.statusText) ctx.message = init.statusText;
    if (body === null || typeof body === "string") {
      ctx.body = body;
      return;
    }
    // Each `next` message is written with the `id:` of the event it was made of; closing the answer ends the
    // subscription (pipeline destroys the source, whose return() graphql-sse disposes).
    const pending = ids.get(ctx) ?? [];
    const withIds = new Transform({
      writableObjectMode: true,
      transform(message: string, _encoding, done) {
        const id = message.startsWith("event: next") ? pending.shift() : undefined;
        done(null, id === undefined ? message : `id: ${id}\n${message}`);
      },
    });
    ctx.body = pipeline(Readable.from(body), withIds, () => {});
  };
}

/** The request as graphql-sse takes it, with `body` its parameters or how to read them. */
function sseRequest(ctx: Context, body: SseRequest["body"]): SseRequest<unknown, Context> {
  return {
    method: ctx.method,
    url: ctx.url,
    headers: {
      get: (key) => {
        const value = ctx.headers[key];
        return Array.isArray(value) ? value.join("\n") : value;
      },
    },
    body,
    raw: ctx.req,
    context: ctx,
  };
}

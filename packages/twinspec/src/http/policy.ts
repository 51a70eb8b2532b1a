// Everything the server does around every request, in one middleware rather than eight stacked ones (each layer
// of Koa middleware costs an async call and a promise per request): the request id and its log line, metrics, CORS,
// the URL length limit, problems for whatever is thrown, 404 for unknown paths, cache headers and conditional GETs
// outside the spec's operations, and compression of large bodies. Each concern stays a function of its own module;
// this file is their order.
import type { Context, Middleware, Next } from "koa";
import type { Logger } from "pino";
import { cacheHeadersOf } from "./conditional.js";
import { answerError } from "./errors.js";
import { accessRecorder } from "./access.js";
import { assignRequestId } from "./request-id.js";
import type { Metrics } from "./metrics.js";
import { refusalOf } from "../runtime/problems.js";

export interface PolicyOptions {
  logger: Logger;
  metrics: Metrics;
  /** a request path → its route template, for metrics (the REST runtime names its own: state.route) */
  routeOf: (path: string) => string;
  /** CORS, run only for requests that carry an Origin (browsers) */
  cors: Middleware;
  /** whether CORS is configured: then every answer varies by Origin */
  corsOn: boolean;
  /** compression of a body (koa-compress); run only for bodies of at least `threshold` bytes */
  compress: Middleware;
  compressThreshold: number;
  maxUrlLength: number;
  /** what the 404 for an unknown path lists */
  entryPoints: string[];
  /** whether the server is stopping: then every answer not begun yet says Connection: close */
  stopping: () => boolean;
}

const noop = async () => {};

export function requestPolicy(options: PolicyOptions): Middleware {
  const { logger, metrics, routeOf, cors, compress, compressThreshold, maxUrlLength, entryPoints } = options;

  const inner = async (ctx: Context, next: Next) => {
    try {
      if (ctx.originalUrl.length > maxUrlLength) {
        throw refusalOf(
          "uri_too_long",
          `The URL is ${ctx.originalUrl.length} characters long; at most ${maxUrlLength} are accepted. Send large inputs in a request body.`,
        );
      }
      await next();
      if (ctx.res.statusCode === 404 && ctx.response.body === undefined)
        throw refusalOf("no_route", `No resource at ${ctx.request.path}. Start from one of the entry points.`, {
          entryPoints,
        });
    } catch (error) {
      answerError(ctx, error);
    }
    cacheHeadersOf(ctx, options.corsOn);
    if (options.stopping() && !ctx.headerSent) ctx.set("Connection", "close");
    // A request without Accept-Encoding gets the body as it is (koa-compress's default, identity): its negotiation
    // is not run for it. Every answer already varies by Accept-Encoding (cacheHeadersOf).
    if (ctx.req.headers["accept-encoding"] !== undefined && large(ctx, compressThreshold)) await compress(ctx, noop);
  };

  const recordAccess = accessRecorder(logger, metrics);
  return async (ctx, next) => {
    const started = performance.now();
    assignRequestId(ctx, logger);
    try {
      if (ctx.req.headers.origin !== undefined) await cors(ctx, () => inner(ctx, next));
      else await inner(ctx, next);
    } finally {
      recordAccess(
        ctx,
        (ctx.state.route as string | undefined) ?? routeOf(ctx.request.path),
        performance.now() - started,
      );
    }
  };
}

/** A body worth compressing: a stream (size unknown), or text or bytes of at least `threshold` bytes. */
function large(ctx: Context, threshold: number): boolean {
  const body = ctx.response.body;
  const status = ctx.res.statusCode;
  if (body === undefined || body === null || ctx.req.method === "HEAD" || status === 204 || status === 304)
    return false;
  if (typeof body === "string") return body.length >= threshold / 3 && Buffer.byteLength(body) >= threshold;
  if (Buffer.isBuffer(body)) return body.length >= threshold;
  // An event stream is written message by message: compressed, its messages would wait in the compressor.
  return ctx.response.type !== "text/event-stream";
}

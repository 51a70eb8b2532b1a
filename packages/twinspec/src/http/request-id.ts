// Gives every request an id (the caller's X-Request-Id when it is sane), echoes it back, and logs one line per
// request. The per-request logger (ctx.state.log, which carries the id) is made only when something logs through it:
// most requests log nothing but their one line.
import { randomUUID } from "node:crypto";
import type { Context, Middleware } from "koa";
import type { Logger } from "pino";
import { header } from "../runtime/headers.js";

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** ctx.state of a request: its id, and its logger, made on first use (one class, not a property defined per request). */
class RequestState {
  [key: string]: unknown;
  #log: Logger | undefined;
  readonly #root: Logger;
  constructor(
    readonly requestId: string,
    root: Logger,
  ) {
    this.#root = root;
  }
  get log(): Logger {
    return (this.#log ??= this.#root.child({ requestId: this.requestId }));
  }
  set log(value: Logger) {
    this.#log = value;
  }
}

/** Sets the request's id (state.requestId, X-Request-Id) and its lazily made logger (state.log). */
export function assignRequestId(ctx: Context, logger: Logger): string {
  const given = header(ctx, "x-request-id");
  const id = given && SANE.test(given) ? given : randomUUID();
  // Koa's state starts empty; whatever a middleware ahead of this one put there is kept.
  ctx.state = isEmpty(ctx.state)
    ? new RequestState(id, logger)
    : Object.assign(new RequestState(id, logger), ctx.state);
  ctx.res.setHeader("X-Request-Id", id);
  return id;
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/** The request's one log line; `ms`: how long it took. */
function logRequest(ctx: Context, logger: Logger, ms: number): void {
  const { req, res } = ctx;
  logger.info(
    { requestId: ctx.state.requestId, method: req.method, url: req.url, status: res.statusCode, ms: Math.round(ms) },
    "request",
  );
}

/** The same as a middleware, for apps other than ours (the runtime's tests). */
export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    assignRequestId(ctx, logger);
    const started = performance.now();
    try {
      await next();
    } finally {
      logRequest(ctx, logger, performance.now() - started);
    }
  };
}

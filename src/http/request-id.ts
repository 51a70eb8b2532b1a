// Gives every request an id (the caller's X-Request-Id when it is sane), echoes it back, and logs one line per request.
import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import type { Logger } from "pino";

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get("X-Request-Id");
    const id = SANE.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set("X-Request-Id", id);
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.log.info({ method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(performance.now() - started) }, "request");
    }
  };
}

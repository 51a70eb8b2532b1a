// Turns anything thrown below into a problem+json answer. HttpErrors are the caller's fault and say so; a database
// that cannot serve now (unreachable, disk full, …) is 503 + Retry-After; anything else is masked as 500 with the
// request id, and logged with its stack.
import type { Context, Middleware } from "koa";
import { unavailable } from "../store/unavailable.js";
import { HttpError, problem, PROBLEM_TYPE } from "../runtime/problem.js";

/** Answers `error` on `ctx` as a problem (see above). */
export function answerError(ctx: Context, error: unknown): void {
  const requestId = String(ctx.state.requestId ?? "");
  const down = error instanceof HttpError ? undefined : unavailable(error);
  if (error instanceof HttpError) {
    ctx.status = error.status;
    ctx.set(error.headers);
    ctx.body = { ...error.problem, requestId };
  } else if (down) {
    ctx.state.log?.warn({ reason: down.reason }, "database unavailable");
    ctx.status = 503;
    ctx.set("Retry-After", String(down.retryAfterSeconds));
    ctx.body = problem(503, down.message, { type: "urn:twinspec:problem:unavailable", requestId });
  } else {
    ctx.state.log?.error({ err: error }, "unhandled error");
    ctx.status = 500;
    ctx.body = problem(500, `An unexpected error occurred; quote request id ${requestId} when reporting it.`, { requestId });
  }
  ctx.type = PROBLEM_TYPE;
}

/** answerError as a middleware, for a Koa app without the request policy (the runtime's own tests). */
export function problemErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      answerError(ctx, error);
    }
  };
}

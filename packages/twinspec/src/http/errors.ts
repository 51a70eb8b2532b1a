// Turns anything thrown below into a problem+json answer. HttpErrors are the caller's fault and say so; a database
// that cannot serve now (unreachable, disk full, …) is 503 + Retry-After; anything else is masked as 500 with the
// request id, and logged with its stack.
import type { Context, Middleware } from "koa";
import { unavailable } from "../store/unavailable.js";
import { answerProblem, HttpError } from "../runtime/problem.js";
import { problemOf } from "../runtime/problems.js";

/** Answers `error` on `ctx` as a problem (see above). */
export function answerError(ctx: Context, error: unknown): void {
  const requestId = String(ctx.state.requestId ?? "");
  if (error instanceof HttpError) return answerProblem(ctx, { ...error.problem, requestId }, error.headers);
  const down = unavailable(error);
  if (down) {
    ctx.state.log?.warn({ reason: down.reason }, "database unavailable");
    return answerProblem(ctx, problemOf("unavailable", down.message, { requestId }), {
      "Retry-After": String(down.retryAfterSeconds),
    });
  }
  ctx.state.log?.error({ err: error }, "unhandled error");
  answerProblem(
    ctx,
    problemOf("internal", `An unexpected error occurred; quote request id ${requestId} when reporting it.`, {
      requestId,
    }),
  );
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

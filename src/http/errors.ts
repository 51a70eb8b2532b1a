// Turns anything thrown below into a problem+json answer. HttpErrors are the caller's fault and say so;
// anything else is masked as 500 with the request id, and logged with its stack.
import type { Middleware } from "koa";
import { HttpError, problem, PROBLEM_TYPE } from "./problem.js";

export function problemErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const requestId = String(ctx.state.requestId ?? "");
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        ctx.body = { ...error.problem, requestId };
      } else {
        ctx.state.log?.error({ err: error }, "unhandled error");
        ctx.status = 500;
        ctx.body = problem(500, `An unexpected error occurred; quote request id ${requestId} when reporting it.`, { requestId });
      }
      ctx.type = PROBLEM_TYPE;
    }
  };
}

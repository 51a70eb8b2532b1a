// The last word for a path no route knows: 404 problem listing the API's entry points.
import type { Middleware } from "koa";
import { httpError } from "./problem.js";

export function notFound(entryPoints: string[]): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw httpError(404, `No resource at ${ctx.path}. Start from one of the entry points.`, { entryPoints });
    }
  };
}

// Koa middleware the commerce service adds to every answer (src/main.ts): browsers must not guess a body's media type
// nor frame the service's pages.
import type { Middleware } from "koa";

export const securityHeaders: Middleware = (ctx, next) => {
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("X-Frame-Options", "DENY");
  return next();
};

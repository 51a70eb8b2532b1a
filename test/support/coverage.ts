// Records which (operation, status) pairs of openapi.yaml the test servers actually answered.
import type { Middleware } from "koa";

// On globalThis: mocha may load a spec file through require() and another through import(), which would give
// each its own copy of this module.
const shared = globalThis as { __twinspecAnswered?: Map<string, Set<number>> };
export const answered = (shared.__twinspecAnswered ??= new Map<string, Set<number>>());

export const recordStatuses: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    const op = ctx.state.operationId as string | undefined;
    if (op) {
      const seen = answered.get(op) ?? new Set<number>();
      seen.add(ctx.status);
      answered.set(op, seen);
    }
  }
};

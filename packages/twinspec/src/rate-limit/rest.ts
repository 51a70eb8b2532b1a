// Rate limits on REST: around the authorizer of the generated wiring, so every operation that spends a budget
// (generated/contract.ts) is counted before its input is read — the caller being the verified token's subject, or
// the client's address when there is no valid token (a flood of 401s is limited too). Every answer carries the
// RateLimit-Policy and RateLimit fields (fields.ts); over budget, 429 problem+json with Retry-After.
import type { Context } from "koa";
import { refusalOf } from "../runtime/problems.js";
import type { Authorizer, Principal } from "../runtime/index.js";
import { callerOf, rateLimitHeaders, setRateLimitHeaders } from "./fields.js";
import type { Budget, RateLimiter } from "./limiter.js";

/** `authorize`, counting each call against the operation's budget (`budgets`: operationId → budget name). */
export function rateLimited(authorize: Authorizer, limiter: RateLimiter, budgets: Record<string, string>): Authorizer {
  const byOperation = new Map(Object.entries(budgets).map(([op, name]) => [op, limiter.budget(name)]));
  return async (security, ctx, operation, pathParams) => {
    const budget = byOperation.get(operation.operationId);
    if (!budget) return authorize(security, ctx, operation, pathParams);
    let principal: Principal | null;
    try {
      principal = await authorize(security, ctx, operation, pathParams);
    } catch (error) {
      // Refused (401/403): still counted, to whoever the token proved to be, or to the address.
      spend(ctx, limiter, budget, ctx.state.principal);
      throw error;
    }
    spend(ctx, limiter, budget, principal ?? ctx.state.principal);
    return principal;
  };
}

function spend(ctx: Context, limiter: RateLimiter, budget: Budget, principal: Principal | null | undefined) {
  const d = limiter.take(
    budget,
    callerOf(principal, () => ctx.ip),
  );
  setRateLimitHeaders(ctx.res, d);
  if (!d.allowed) {
    throw refusalOf(
      "rate_limited",
      `Rate limit exceeded: ${d.limit} requests per ${budget.windowMs / 1000} s (budget "${budget.name}"); retry in ${d.reset} s.`,
      {},
      { ...rateLimitHeaders(d), "Retry-After": String(d.reset) },
    );
  }
}

// The app's rate limiter: the budgets the specs declare (generated/contract.ts), as configuration scales or replaces
// them, counted in this process on SQLite and added up across instances on PostgreSQL.
import type { Logger } from "pino";
import type { Budget } from "../definition.js";
import type { Store } from "../store/database.js";
import { RateLimitCounts } from "../store/rate-limits.js";
import { RateLimiter, type BudgetSpec } from "./limiter.js";

export interface RateLimitConfig {
  /** multiplies every budget (RATE_LIMIT_FACTOR) */
  factor: number;
  /** budgets replaced, by name (RATE_LIMITS="default=1200/60,graphql=60000/60") */
  overrides: Record<string, BudgetSpec>;
  /** PostgreSQL: how often each instance adds its counts to the shared ones (RATE_LIMIT_SYNC_MS) */
  syncMs: number;
}

const DEFAULT_RATE_LIMITS: RateLimitConfig = { factor: 1, overrides: {}, syncMs: 50 };

export function rateLimiterFor(
  store: Store,
  budgets: Readonly<Record<string, Budget>>,
  config: Partial<RateLimitConfig> = {},
  log?: Logger,
): RateLimiter {
  const { factor, overrides, syncMs } = { ...DEFAULT_RATE_LIMITS, ...config };
  const shared = store.postgres ? RateLimitCounts.over(store.postgres) : undefined;
  return new RateLimiter(budgets, { factor, overrides, syncMs, shared, log });
}

/** "name=limit/window,…" (RATE_LIMITS) → budgets by name; throws naming what is malformed. */
export function parseBudgets(text: string | undefined): Record<string, BudgetSpec> {
  const budgets: Record<string, BudgetSpec> = {};
  for (const part of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([^=\s]+)\s*=\s*(\d+)\s*\/\s*(\d+)$/.exec(part);
    if (!m || Number(m[2]) < 1 || Number(m[3]) < 1)
      throw new Error(`RATE_LIMITS: "${part}" is not <budget>=<limit>/<window seconds>, e.g. default=600/60`);
    budgets[m[1]] = { limit: Number(m[2]), window: Number(m[3]) };
  }
  return budgets;
}

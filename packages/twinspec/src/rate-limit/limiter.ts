// Fixed-window rate limiting: each budget (declared in the specs, generated/contract.ts) gives every caller `limit`
// units per window of `window` seconds, windows aligned to the clock (a budget of 600/60 s resets at every full
// minute), so that instances sharing a database count the same windows. A request spends 1 unit (REST) or its query
// cost (GraphQL); one over budget is refused and spends nothing.
//
// Deciding never waits: the counts live in this process. With a SharedCounts (PostgreSQL) the instance reports what
// it admitted in each window (its own running count: reporting it twice changes nothing, so a statement that failed
// after all is simply sent again) in one statement every `syncMs`, and at once when a caller is new in a window, and
// learns from the same statement what the other instances admitted. So the budget holds across instances up to
// what the others admit between two syncs; when the database cannot be reached, each instance goes on counting
// alone and reports once it is back.
import type { Logger } from "pino";
import { sfString, type Decision } from "./fields.js";
import type { SharedCounts } from "../store/rate-limits.js";

export interface BudgetSpec {
  /** units one caller may spend per window */
  limit: number;
  /** seconds */
  window: number;
}

export interface RateLimitOptions {
  /** multiplies every limit (RATE_LIMIT_FACTOR; default 1); a limit never falls below 1 */
  factor?: number;
  /** budgets replaced by configuration (RATE_LIMITS), by name */
  overrides?: Record<string, BudgetSpec>;
  /** where instances add up their counts (PostgreSQL); without it, counts live in this process only */
  shared?: SharedCounts;
  /** how often counts are sent to `shared` (RATE_LIMIT_SYNC_MS; default 50) */
  syncMs?: number;
  log?: Logger;
  /** the clock, for tests */
  now?: () => number;
}

export type { Decision } from "./fields.js";

interface Counter {
  window: number;
  /** admitted here in this window */
  own: number;
  /** admitted by the other instances, as of the last sync */
  others: number;
  /** waiting in the queue of the next sync */
  queued: boolean;
}

interface Queued {
  budget: Budget;
  caller: string;
  counter: Counter;
}

export class Budget {
  readonly counters = new Map<string, Counter>();
  readonly windowMs: number;
  /** the RateLimit-Policy field, and the policy's name in it (made once: they are sent on every answer) */
  readonly policy: string;
  readonly policyName: string;
  constructor(
    readonly name: string,
    readonly limit: number,
    window: number,
  ) {
    this.windowMs = window * 1000;
    this.policyName = sfString(name);
    this.policy = `${this.policyName};q=${limit};w=${window}`;
  }
}

const SWEEP_MS = 10_000;
const SHARED_SWEEP_MS = 60_000;
/** rows per statement */
const BATCH = 1000;

export class RateLimiter {
  private readonly budgets = new Map<string, Budget>();
  private readonly now: () => number;
  private readonly timers: NodeJS.Timeout[] = [];
  /** counters with something to send, or a total to learn */
  private queue: Queued[] = [];
  private syncing?: Promise<void>;
  private again = false;
  private soon = false;
  private failing = false;
  private lastSharedSweep = 0;

  constructor(
    declared: Record<string, BudgetSpec>,
    private readonly options: RateLimitOptions = {},
  ) {
    const factor = options.factor ?? 1;
    for (const name of Object.keys(options.overrides ?? {})) {
      if (!(name in declared))
        throw new Error(
          `RATE_LIMITS names "${name}", which the specs do not declare; they declare ${Object.keys(declared).join(", ")}`,
        );
    }
    for (const [name, spec] of Object.entries(declared)) {
      const { limit, window } = options.overrides?.[name] ?? spec;
      this.budgets.set(name, new Budget(name, Math.max(1, Math.round(limit * factor)), window));
    }
    this.now = options.now ?? Date.now;
    const sweep = setInterval(() => this.sweep(), SWEEP_MS);
    sweep.unref();
    this.timers.push(sweep);
    if (options.shared) {
      const sync = setInterval(() => void this.sync(), options.syncMs ?? 50);
      sync.unref();
      this.timers.push(sync);
    }
  }

  budget(name: string): Budget {
    const budget = this.budgets.get(name);
    if (!budget) throw new Error(`no rate-limit budget "${name}"`);
    return budget;
  }

  /** Spends `cost` of `caller`'s budget, if it has that much left in this window. */
  take(budget: Budget, caller: string, cost = 1): Decision {
    const now = this.now();
    const window = now - (now % budget.windowMs);
    let counter = budget.counters.get(caller);
    if (counter === undefined || counter.window !== window) {
      counter = { window, own: 0, others: 0, queued: false };
      budget.counters.set(caller, counter);
      // A caller new here may have spent elsewhere: learn what at once.
      if (this.options.shared) {
        this.enqueue(budget, caller, counter);
        this.syncSoon();
      }
    }
    const reset = Math.ceil((window + budget.windowMs - now) / 1000);
    const allowed = counter.own + counter.others + cost <= budget.limit;
    if (allowed) {
      counter.own += cost;
      if (!counter.queued && this.options.shared) this.enqueue(budget, caller, counter);
    }
    return {
      allowed,
      cost,
      limit: budget.limit,
      remaining: Math.max(0, budget.limit - counter.own - counter.others),
      reset,
      policy: budget.policy,
      policyName: budget.policyName,
    };
  }

  /** Reports what is pending (PostgreSQL) and stops the timers. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.sync();
  }

  private enqueue(budget: Budget, caller: string, counter: Counter) {
    counter.queued = true;
    this.queue.push({ budget, caller, counter });
  }

  private syncSoon() {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      void this.sync();
    });
  }

  /** One statement reports every changed count; one at a time (a call meanwhile runs after it). */
  sync(): Promise<void> {
    if (!this.options.shared || (this.queue.length === 0 && !this.syncing)) return Promise.resolve();
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = this.send().finally(() => {
      this.syncing = undefined;
      if (this.again) {
        this.again = false;
        this.syncSoon();
      }
    });
    return this.syncing;
  }

  private async send(): Promise<void> {
    const shared = this.options.shared!;
    const sent = this.queue;
    this.queue = [];
    for (const q of sent) q.counter.queued = false;
    const key = (q: Queued) => `${q.budget.name}|${q.caller}`;
    let done = 0;
    try {
      for (; done < sent.length; done += BATCH) {
        const part = sent.slice(done, done + BATCH);
        const others = await shared.report(
          part.map((q) => ({
            key: key(q),
            window: q.counter.window,
            used: q.counter.own,
            expires: q.counter.window + q.budget.windowMs,
          })),
        );
        const byKey = new Map(others.map((o) => [`${o.key}@${o.window}`, o.used]));
        for (const q of part)
          q.counter.others = Math.max(q.counter.others, byKey.get(`${key(q)}@${q.counter.window}`) ?? 0);
      }
      if (this.failing) this.options.log?.info("rate limits: the shared counts are reachable again");
      this.failing = false;
      const now = this.now();
      if (now - this.lastSharedSweep > SHARED_SWEEP_MS) {
        this.lastSharedSweep = now;
        await shared.sweep(now);
      }
    } catch (error) {
      // Not reported (or not known to be): back in the queue for the next sync; meanwhile this instance counts alone.
      for (const q of sent.slice(done)) if (!q.counter.queued) this.enqueue(q.budget, q.caller, q.counter);
      if (!this.failing)
        this.options.log?.warn(
          { err: error },
          "rate limits: cannot reach the shared counts; counting in this process until they are back",
        );
      this.failing = true;
    }
  }

  /** Forgets the counters of windows that have ended (and what they had not sent: it no longer matters). */
  private sweep() {
    const now = this.now();
    for (const budget of this.budgets.values()) {
      for (const [caller, counter] of budget.counters)
        if (counter.window + budget.windowMs <= now) budget.counters.delete(caller);
    }
    this.queue = this.queue.filter((q) => q.counter.window + q.budget.windowMs > now);
  }
}

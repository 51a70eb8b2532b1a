// When a call may be sent again and how long to wait first: Retry-After when the server says, else an exponential
// backoff with full jitter, within a budget of tries and of total waiting.
import type { RetryOptions } from "./types.js";

export const RETRY_DEFAULTS: Required<RetryOptions> = { attempts: 4, maxWait: 30_000, baseDelay: 200 };

/** The statuses that mean "the same request later may succeed": too many requests, service unavailable. */
export const RETRY_STATUSES = new Set([429, 503]);

/** Retry-After in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfter(headers: Headers): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The wait before try `attempt + 1` when the server named none: random in [0, base · 2^(attempt-1)]. */
const backoff = (attempt: number, baseDelay: number) => Math.random() * baseDelay * 2 ** (attempt - 1);

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** A budget for one call: how many tries and how much waiting are left. */
export class RetryBudget {
  private tries = 0;
  private waited = 0;
  private readonly options: Required<RetryOptions>;
  constructor(options: RetryOptions | false | undefined) {
    this.options = options === false ? { ...RETRY_DEFAULTS, attempts: 1 } : { ...RETRY_DEFAULTS, ...options };
  }
  /** Counts a try. */
  start() {
    this.tries++;
  }
  /** The wait before the next try, or undefined when the budget would be spent (no try left, or too long a wait). */
  next(named: number | undefined): number | undefined {
    if (this.tries >= this.options.attempts) return undefined;
    const wait = named ?? backoff(this.tries, this.options.baseDelay);
    if (this.waited + wait > this.options.maxWait) return undefined;
    this.waited += wait;
    return wait;
  }
}

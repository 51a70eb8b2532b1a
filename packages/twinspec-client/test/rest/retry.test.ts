// When the runtime tries a call again, and how long it waits first.
import assert from "node:assert/strict";
import { RetryBudget, retryAfter } from "../../src/rest/retry.js";

describe("retry: Retry-After and the budget", () => {
  const given: [string, string | null, (ms: number | undefined) => boolean][] = [
    ["delay-seconds", "3", (ms) => ms === 3000],
    ["zero", "0", (ms) => ms === 0],
    [
      "an HTTP-date in the future",
      new Date(Date.now() + 5_000).toUTCString(),
      (ms) => ms !== undefined && ms > 3_000 && ms <= 5_000,
    ],
    ["an HTTP-date in the past", new Date(Date.now() - 60_000).toUTCString(), (ms) => ms === 0],
    ["no header", null, (ms) => ms === undefined],
    ["something unreadable", "soon", (ms) => ms === undefined],
  ];
  for (const [what, value, want] of given) {
    it(`reads ${what}`, () => {
      const headers = new Headers(value === null ? {} : { "retry-after": value });
      const ms = retryAfter(headers);
      assert.ok(want(ms), `${value} → ${ms}`);
    });
  }

  it("allows `attempts` tries in all", () => {
    const budget = new RetryBudget({ attempts: 3, maxWait: 60_000 });
    const waits: (number | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      budget.start();
      waits.push(budget.next(100));
    }
    assert.deepEqual(waits, [100, 100, undefined]);
  });

  it("gives up rather than wait past maxWait, in all", () => {
    const budget = new RetryBudget({ attempts: 10, maxWait: 1_000 });
    budget.start();
    assert.equal(budget.next(600), 600);
    budget.start();
    assert.equal(budget.next(600), undefined, "600 + 600 > 1000");
  });

  it("backs off below base · 2^(try-1) when the server names no wait; false allows one try", () => {
    const budget = new RetryBudget({ attempts: 5, baseDelay: 100 });
    for (let i = 1; i <= 4; i++) {
      budget.start();
      const wait = budget.next(undefined)!;
      assert.ok(wait >= 0 && wait <= 100 * 2 ** (i - 1), `${wait}`);
    }
    const none = new RetryBudget(false);
    none.start();
    assert.equal(none.next(0), undefined);
  });
});

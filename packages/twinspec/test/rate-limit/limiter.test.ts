// The limiter itself, on a clock the test moves: fixed windows aligned to the clock, refusals that spend nothing,
// callers that never share a budget, the factor and overrides, and instances that add up their counts through
// shared totals — including while those cannot be reached.
import assert from "node:assert/strict";
import { parseList, type Item } from "structured-headers";
import { RateLimiter } from "../../src/rate-limit/limiter.js";
import type { SharedCounts } from "../../src/store/rate-limits.js";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0); // a window boundary for windows that divide an hour

function clock(start = T0) {
  const c = { now: start, fn: () => c.now };
  return c;
}

/** The rate_limits table: each instance's count per key and window; `view` is one instance's access to it. */
class MemoryTable {
  readonly rows = new Map<string, number>();
  /** "down": nothing gets through; "lost answers": statements apply, but their answers never come back */
  mode: "up" | "down" | "lost answers" = "up";
  statements = 0;
  total = (key: string, window = T0) =>
    [...this.rows].filter(([id]) => id.startsWith(`${key}@${window}@`)).reduce((sum, [, n]) => sum + n, 0);
  view(instance: string): SharedCounts {
    return {
      report: async (own) => {
        this.statements++;
        if (this.mode === "down") throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        const others = own.map((c) => ({
          key: c.key,
          window: c.window,
          used: this.total(c.key, c.window) - (this.rows.get(`${c.key}@${c.window}@${instance}`) ?? 0),
        }));
        for (const c of own)
          this.rows.set(
            `${c.key}@${c.window}@${instance}`,
            Math.max(this.rows.get(`${c.key}@${c.window}@${instance}`) ?? 0, c.used),
          );
        if (this.mode === "lost answers") throw new Error("Connection terminated unexpectedly");
        return others.filter((o) => o.used > 0);
      },
      sweep: async () => {},
    };
  }
}

const admitted = (limiter: RateLimiter, budget: string, caller: string, n: number) => {
  let ok = 0;
  for (let i = 0; i < n; i++) if (limiter.take(limiter.budget(budget), caller).allowed) ok++;
  return ok;
};

describe("rate limiter", () => {
  const limiters: RateLimiter[] = [];
  const make = (...args: ConstructorParameters<typeof RateLimiter>) => {
    const limiter = new RateLimiter(...args);
    limiters.push(limiter);
    return limiter;
  };
  afterEach(async () => {
    for (const l of limiters.splice(0)) await l.close();
  });

  it("a caller gets `limit` per window: remaining counts down, Reset says when the window ends, a refusal spends nothing", () => {
    const c = clock(T0 + 15_000);
    const limiter = make({ api: { limit: 3, window: 60 } }, { now: c.fn });
    const budget = limiter.budget("api");
    assert.deepEqual(limiter.take(budget, "s:ada"), {
      allowed: true,
      cost: 1,
      limit: 3,
      remaining: 2,
      reset: 45,
      policy: '"api";q=3;w=60',
      policyName: '"api"',
    });
    assert.equal(limiter.take(budget, "s:ada").remaining, 1);
    c.now += 500;
    assert.deepEqual(limiter.take(budget, "s:ada"), {
      allowed: true,
      cost: 1,
      limit: 3,
      remaining: 0,
      reset: 45,
      policy: '"api";q=3;w=60',
      policyName: '"api"',
    });
    assert.deepEqual(limiter.take(budget, "s:ada"), {
      allowed: false,
      cost: 1,
      limit: 3,
      remaining: 0,
      reset: 45,
      policy: '"api";q=3;w=60',
      policyName: '"api"',
    });
    // At the next full minute the budget is whole again: the refusals above spent nothing of it.
    c.now = T0 + 60_000;
    assert.equal(admitted(limiter, "api", "s:ada", 5), 3);
  });

  it("a cost larger than what is left is refused; smaller ones still pass", () => {
    const limiter = make({ gql: { limit: 100, window: 60 } }, { now: clock().fn });
    const budget = limiter.budget("gql");
    assert.equal(limiter.take(budget, "s:ada", 51).remaining, 49);
    assert.deepEqual(
      [limiter.take(budget, "s:ada", 51).allowed, limiter.take(budget, "s:ada", 49).allowed],
      [false, true],
    );
  });

  it("one caller's flood does not touch another's budget, nor the same caller's other budgets", () => {
    const limiter = make({ a: { limit: 5, window: 60 }, b: { limit: 5, window: 60 } }, { now: clock().fn });
    assert.equal(admitted(limiter, "a", "s:flood", 1000), 5);
    assert.equal(admitted(limiter, "a", "s:quiet", 10), 5);
    assert.equal(admitted(limiter, "a", "a:127.0.0.2", 10), 5);
    assert.equal(admitted(limiter, "b", "s:flood", 10), 5);
  });

  it("the factor multiplies every budget (never below 1); overrides replace a budget; an unknown override is refused", () => {
    const specs = { a: { limit: 600, window: 60 }, b: { limit: 3, window: 60 } };
    const scaled = make(specs, { factor: 0.01, now: clock().fn });
    assert.deepEqual([scaled.budget("a").limit, scaled.budget("b").limit], [6, 1]);
    assert.equal(make(specs, { factor: 1000 }).budget("a").limit, 600_000);
    const replaced = make(specs, { overrides: { b: { limit: 7, window: 3600 } }, factor: 2 });
    assert.deepEqual(
      [replaced.budget("b").limit, replaced.budget("b").windowMs, replaced.budget("b").policy],
      [14, 3_600_000, '"b";q=14;w=3600'],
    );
    assert.throws(
      () => new RateLimiter(specs, { overrides: { c: { limit: 1, window: 1 } } }),
      /RATE_LIMITS names "c", which the specs do not declare; they declare a, b/,
    );
  });

  it("the budget's name is the policy's, an sf-string: quotes and backslashes escaped, anything but printable ASCII refused", () => {
    const budget = make({ 'tag:a"b\\c': { limit: 5, window: 60 } }).budget('tag:a"b\\c');
    assert.equal(budget.policy, String.raw`"tag:a\"b\\c";q=5;w=60`);
    const [[name]] = parseList(budget.policy) as Item[];
    assert.equal(name, 'tag:a"b\\c');
    assert.throws(() => make({ "tag:tâches": { limit: 5, window: 60 } }), /policy name must be printable ASCII/);
  });

  describe("shared by instances", () => {
    it("two instances share one budget: each learns the others' counts at its next sync, and goes over by at most what it admits before", async () => {
      const table = new MemoryTable();
      const c = clock();
      const a = make({ api: { limit: 10, window: 60 } }, { shared: table.view("a"), now: c.fn, syncMs: 60_000 });
      const b = make({ api: { limit: 10, window: 60 } }, { shared: table.view("b"), now: c.fn, syncMs: 60_000 });
      assert.equal(admitted(a, "api", "s:ada", 7), 7);
      await a.sync();
      // New to b: its first request passes and makes b learn the others' counts at once; then only what is left.
      assert.equal(admitted(b, "api", "s:ada", 1), 1);
      await b.sync();
      assert.equal(admitted(b, "api", "s:ada", 10), 2);
      await b.sync();
      // a still counts 7: what it admits until its next sync goes over the budget — the documented precision.
      assert.equal(admitted(a, "api", "s:ada", 1), 1);
      await a.sync();
      assert.equal(admitted(a, "api", "s:ada", 10), 0);
      assert.equal(table.total("api|s:ada"), 11);
    });

    it("a caller new to an instance makes it sync at once, without waiting for the interval", async () => {
      const table = new MemoryTable();
      const a = make({ api: { limit: 10, window: 60 } }, { shared: table.view("a"), now: clock().fn, syncMs: 60_000 });
      a.take(a.budget("api"), "s:ada");
      await new Promise((r) => setImmediate(r));
      await a.sync();
      assert.equal(table.total("api|s:ada"), 1);
    });

    it("while the shared counts cannot be reached, each instance counts alone; its counts are recorded once they are back", async () => {
      const table = new MemoryTable();
      table.mode = "down";
      const a = make({ api: { limit: 10, window: 60 } }, { shared: table.view("a"), now: clock().fn, syncMs: 60_000 });
      assert.equal(admitted(a, "api", "s:ada", 4), 4);
      await a.sync(); // fails: nothing thrown, nothing lost
      assert.equal(admitted(a, "api", "s:ada", 20), 6);
      table.mode = "up";
      await a.sync();
      assert.equal(table.total("api|s:ada"), 10);
    });

    it("a statement that applied but whose answer was lost is sent again without counting anything twice", async () => {
      const table = new MemoryTable();
      const a = make({ api: { limit: 10, window: 60 } }, { shared: table.view("a"), now: clock().fn, syncMs: 60_000 });
      assert.equal(admitted(a, "api", "s:ada", 4), 4);
      table.mode = "lost answers";
      await a.sync();
      await a.sync();
      table.mode = "up";
      assert.equal(admitted(a, "api", "s:ada", 1), 1);
      await a.sync();
      assert.equal(table.total("api|s:ada"), 5);
    });

    it("one statement per sync carries every caller's count", async () => {
      const table = new MemoryTable();
      const a = make(
        { api: { limit: 1000, window: 60 } },
        { shared: table.view("a"), now: clock().fn, syncMs: 60_000 },
      );
      for (let i = 0; i < 500; i++) a.take(a.budget("api"), `s:caller${i % 50}`);
      await new Promise((r) => setImmediate(r));
      await a.sync();
      const before = table.statements;
      for (let i = 0; i < 500; i++) a.take(a.budget("api"), `s:caller${i % 50}`);
      await a.sync();
      assert.equal(table.statements - before, 1);
      assert.equal(table.total("api|s:caller7"), 20);
    });
  });
});

// The limiter itself, on a clock the test moves: fixed windows aligned to the clock, refusals that spend nothing,
// callers that never share a budget, the factor and overrides, and instances that add up their counts through
// shared totals — including while those cannot be reached.
import assert from "node:assert/strict";
import { RateLimiter, type SharedCount, type SharedCounts } from "../../src/rate-limit/limiter.js";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0); // a window boundary for windows that divide an hour

function clock(start = T0) {
  const c = { now: start, fn: () => c.now };
  return c;
}

/** The shared totals of several instances, as the rate_limits table keeps them. */
class MemoryCounts implements SharedCounts {
  readonly rows = new Map<string, number>();
  down = false;
  statements = 0;
  async add(deltas: (SharedCount & { expires: number })[]) {
    this.statements++;
    if (this.down) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    return deltas.map((d) => {
      const id = `${d.key}@${d.window}`;
      this.rows.set(id, (this.rows.get(id) ?? 0) + d.used);
      return { key: d.key, window: d.window, used: this.rows.get(id)! };
    });
  }
  async sweep() {}
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
    assert.deepEqual(limiter.take(budget, "s:ada"), { allowed: true, limit: 3, remaining: 2, reset: 45, policy: "3;w=60" });
    assert.equal(limiter.take(budget, "s:ada").remaining, 1);
    c.now += 500;
    assert.deepEqual(limiter.take(budget, "s:ada"), { allowed: true, limit: 3, remaining: 0, reset: 45, policy: "3;w=60" });
    assert.deepEqual(limiter.take(budget, "s:ada"), { allowed: false, limit: 3, remaining: 0, reset: 45, policy: "3;w=60" });
    // At the next full minute the budget is whole again: the refusals above spent nothing of it.
    c.now = T0 + 60_000;
    assert.equal(admitted(limiter, "api", "s:ada", 5), 3);
  });

  it("a cost larger than what is left is refused; smaller ones still pass", () => {
    const limiter = make({ gql: { limit: 100, window: 60 } }, { now: clock().fn });
    const budget = limiter.budget("gql");
    assert.equal(limiter.take(budget, "s:ada", 51).remaining, 49);
    assert.deepEqual([limiter.take(budget, "s:ada", 51).allowed, limiter.take(budget, "s:ada", 49).allowed], [false, true]);
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
    assert.deepEqual([replaced.budget("b").limit, replaced.budget("b").windowMs, replaced.budget("b").policy], [14, 3_600_000, "14;w=3600"]);
    assert.throws(() => new RateLimiter(specs, { overrides: { c: { limit: 1, window: 1 } } }), /RATE_LIMITS names "c", which the specs do not declare; they declare a, b/);
  });

  describe("shared by instances", () => {
    it("two instances share one budget: each learns the total at its next sync, and goes over by at most what it admits before", async () => {
      const shared = new MemoryCounts();
      const c = clock();
      const a = make({ api: { limit: 10, window: 60 } }, { shared, now: c.fn, syncMs: 60_000 });
      const b = make({ api: { limit: 10, window: 60 } }, { shared, now: c.fn, syncMs: 60_000 });
      assert.equal(admitted(a, "api", "s:ada", 7), 7);
      await a.sync();
      // New to b: its first request passes and makes b learn the total at once; then only what is left.
      assert.equal(admitted(b, "api", "s:ada", 1), 1);
      await b.sync();
      assert.equal(admitted(b, "api", "s:ada", 10), 2);
      await b.sync();
      // a still counts 7: what it admits until its next sync goes over the budget — the documented precision.
      assert.equal(admitted(a, "api", "s:ada", 1), 1);
      await a.sync();
      assert.equal(admitted(a, "api", "s:ada", 10), 0);
      assert.equal(shared.rows.get(`api|s:ada@${T0}`), 11);
    });

    it("a caller new to an instance makes it sync at once, without waiting for the interval", async () => {
      const shared = new MemoryCounts();
      const a = make({ api: { limit: 10, window: 60 } }, { shared, now: clock().fn, syncMs: 60_000 });
      a.take(a.budget("api"), "s:ada");
      await new Promise((r) => setImmediate(r));
      await a.sync();
      assert.equal(shared.rows.get(`api|s:ada@${T0}`), 1);
    });

    it("while the shared totals cannot be reached, each instance counts alone; its counts are added once they are back", async () => {
      const shared = new MemoryCounts();
      shared.down = true;
      const a = make({ api: { limit: 10, window: 60 } }, { shared, now: clock().fn, syncMs: 60_000 });
      assert.equal(admitted(a, "api", "s:ada", 4), 4);
      await a.sync(); // fails: nothing thrown, nothing lost
      assert.equal(admitted(a, "api", "s:ada", 20), 6);
      shared.down = false;
      await a.sync();
      assert.equal(shared.rows.get(`api|s:ada@${T0}`), 10);
    });

    it("one statement per sync carries every caller's count", async () => {
      const shared = new MemoryCounts();
      const a = make({ api: { limit: 1000, window: 60 } }, { shared, now: clock().fn, syncMs: 60_000 });
      await new Promise((r) => setImmediate(r));
      for (let i = 0; i < 500; i++) a.take(a.budget("api"), `s:caller${i % 50}`);
      await a.sync();
      const before = shared.statements;
      for (let i = 0; i < 500; i++) a.take(a.budget("api"), `s:caller${i % 50}`);
      await a.sync();
      assert.equal(shared.statements - before, 1);
      assert.equal(shared.rows.get(`api|s:caller7@${T0}`), 20);
    });
  });
});

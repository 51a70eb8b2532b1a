// An acknowledged write survives a crash; a checkout interrupted by a crash completes after restart, once.
import assert from "node:assert/strict";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import type { ServerProcess } from "twinspec-dev/testing";
import { startProcess } from "../support/process.js";
import { ada, call } from "../support/server.js";
import { openStore } from "../../packages/twinspec/src/store/database.js";
import { domainOn } from "../support/services.js";

describe("durability across crashes", function () {
  this.timeout(90_000);
  // SQLite file or PostgreSQL schema, whichever pass of npm test this is.
  let database: TestDatabase;
  let running: ServerProcess[] = [];
  beforeEach(async () => (database = await freshDatabase()));
  afterEach(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await Promise.all(running.map((p) => p.exited));
    running = [];
    await database.drop();
  });
  const start = async (env: Record<string, string> = {}) => {
    const p = await startProcess({ DATABASE_URL: database.url, JOB_LEASE_MS: "300", JOB_POLL_MS: "50", ...env });
    running.push(p);
    return p;
  };

  it("SIGKILL during a burst of 200 POSTs: after restart every customer that got a 201 is there", async () => {
    const first = await start();
    const acknowledged: string[] = [];
    let sent = 0;
    let answered = 0;
    const burst = Array.from({ length: 200 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 2));
      sent++;
      try {
        const res = await call(`${first.url}/customers`, {
          method: "POST",
          json: { ...ada, email: `burst${i}@example.com` },
        });
        if (res.status === 201) acknowledged.push(res.json.customerId);
      } catch {
        // the connection died with the server: not acknowledged
      } finally {
        answered++;
      }
    });
    // Kill once writes are being acknowledged, not at a fixed time: a fresh server's first answers can take longer
    // than the whole burst takes to send on a busy machine (and a new PostgreSQL pool opens its connections first),
    // so the wait is for answers, with every request sent and still in flight meanwhile.
    while (acknowledged.length < 20 && answered < 200) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    await Promise.all(burst);
    await first.exited;
    assert.ok(
      acknowledged.length > 0 && acknowledged.length < 200,
      `the kill landed mid-burst (${acknowledged.length} of ${sent} acknowledged)`,
    );

    const second = await start();
    for (const id of acknowledged) {
      const res = await call(`${second.url}/customers/${id}`);
      assert.equal(res.status, 200, `acknowledged ${id} lost`);
    }
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0);
  });

  it("a checkout whose worker crashed mid-job completes after restart with exactly one order", async () => {
    const first = await start();
    const customer = await call(`${first.url}/customers`, { method: "POST", json: ada });
    const cart = await call(`${first.url}/customers/${customer.json.customerId}/carts`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 2, unitPrice: 3 }] },
    });
    first.child.kill("SIGTERM");
    await first.exited;

    // What a crash mid-job leaves behind: the checkout accepted and claimed (RUNNING, lease held), its
    // transaction never committed. Made directly in the database, since a real crash cannot be timed.
    const store = await openStore(database.url);
    const { services } = domainOn(store);
    const job = await services.carts.checkout(cart.json.cartId);
    await store.db
      .updateTable("jobs")
      .set({ status: "RUNNING", attempts: 1, lease_until: new Date(Date.now() + 500).toISOString() })
      .where("job_id", "=", job.jobId)
      .execute();
    await store.close();

    const second = await start();
    let status = "";
    for (let i = 0; i < 100 && status !== "SUCCEEDED"; i++) {
      status = (await call(`${second.url}/jobs/${job.jobId}`)).json.status;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, "SUCCEEDED");
    const orders = await call(`${second.url}/customers/${customer.json.customerId}/orders`);
    assert.equal(orders.json.items.length, 1);
    assert.equal(orders.json.items[0].total, 6);
  });

  it("SIGKILL right after a burst of checkouts: after restart every accepted job ends SUCCEEDED with one order each", async () => {
    const first = await start();
    const customer = await call(`${first.url}/customers`, { method: "POST", json: ada });
    const jobs: string[] = [];
    for (let i = 0; i < 10; i++) {
      const cart = await call(`${first.url}/customers/${customer.json.customerId}/carts`, {
        method: "POST",
        json: { items: [{ sku: `s${i}`, quantity: 1, unitPrice: 1 }] },
      });
      const accepted = await call(`${first.url}/carts/${cart.json.cartId}/checkout`, { method: "POST" });
      assert.equal(accepted.status, 202);
      jobs.push(accepted.headers.get("location")!);
    }
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await start();
    for (const job of jobs) {
      let res = await call(`${second.url}${job}`);
      for (let i = 0; i < 100 && res.json.status !== "SUCCEEDED"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        res = await call(`${second.url}${job}`);
      }
      assert.equal(res.json.status, "SUCCEEDED", job);
    }
    const orders = await call(`${second.url}/customers/${customer.json.customerId}/orders?limit=100`);
    assert.equal(orders.json.items.length, 10);
    assert.deepEqual(
      orders.json.items.map((o: { items: { sku: string }[] }) => o.items[0].sku).sort(),
      Array.from({ length: 10 }, (_, i) => `s${i}`).sort(),
    );
  });
});

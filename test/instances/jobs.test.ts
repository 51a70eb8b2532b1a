// Checkout jobs across instances (PostgreSQL): two server processes on one database share the queue; 100
// checkouts make exactly 100 orders, none twice, none lost — also when one instance is SIGKILLed half-way and
// its claimed jobs must wait out their leases on the other.
import assert from "node:assert/strict";
import pg from "pg";
import { orderIdForJob } from "../../src/domain/checkout.js";
import { call } from "../support/server.js";
import { onPostgres, startInstances, type Instances } from "../support/instances.js";

const CARTS = 100;

(onPostgres ? describe : describe.skip)("checkout jobs across two instances", function () {
  this.timeout(120_000);
  let group: Instances;
  afterEach(() => group?.stop());

  /** 100 carts of one customer, made through both instances; cart i holds sku s<i>. */
  async function carts(urls: string[]) {
    const customer = await call(`${urls[0]}/customers`, {
      method: "POST",
      json: { firstName: "A", lastName: "B", email: "jobs@example.com" },
    });
    assert.equal(customer.status, 201, customer.text);
    const ids: string[] = [];
    for (let i = 0; i < CARTS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          call(`${urls[(i + k) % urls.length]}/customers/${customer.json.customerId}/carts`, {
            method: "POST",
            json: { items: [{ sku: `s${i + k}`, quantity: 1, unitPrice: 1 }] },
          }),
        ),
      );
      for (const res of batch) assert.equal(res.status, 201, res.text);
      ids.push(...batch.map((r) => r.json.cartId));
    }
    return ids;
  }

  /** Checks the database itself: one SUCCEEDED job per cart, one order per job holding that cart's items, nothing else. */
  async function expectExactlyOneOrderPerCart(cartIds: string[]) {
    const db = new pg.Client({ connectionString: group.database.url });
    await db.connect();
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { rows } = await db.query<{ n: string }>("select count(*) as n from jobs where status <> 'SUCCEEDED'");
        if (rows[0].n === "0") break;
        if (Date.now() > deadline) throw new Error(`${rows[0].n} jobs not SUCCEEDED after 30 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const carts = await db.query<{ cart_id: string; checkout_job_id: string; items: string }>(
        "select cart_id, checkout_job_id, items from carts",
      );
      assert.equal(carts.rowCount, CARTS);
      assert.ok(
        carts.rows.every((c) => c.checkout_job_id),
        "every cart was checked out",
      );
      const jobs = await db.query<{ job_id: string; status: string; payload: string }>(
        "select job_id, status, payload from jobs",
      );
      assert.equal(jobs.rowCount, CARTS, "one job per cart");
      const orders = await db.query<{ order_id: string; items: string }>("select order_id, items from orders");
      assert.equal(orders.rowCount, CARTS, "exactly one order per job");
      const byId = new Map(orders.rows.map((o) => [o.order_id, o.items]));
      for (const cart of carts.rows)
        assert.equal(byId.get(orderIdForJob(cart.checkout_job_id)), cart.items, `order of cart ${cart.cart_id}`);
      assert.deepEqual(new Set(carts.rows.map((c) => c.cart_id)), new Set(cartIds));
      return (await db.query<{ n: string }>("select count(*) as n from jobs where attempts > 1")).rows[0].n;
    } finally {
      await db.end();
    }
  }

  it("100 checkouts through two instances → exactly 100 orders, each job run once", async () => {
    group = await startInstances(2, { JOB_LEASE_MS: "2000", JOB_POLL_MS: "50" });
    const urls = group.servers.map((s) => s.url);
    const ids = await carts(urls);
    const accepted = await Promise.all(
      ids.map((id, i) => call(`${urls[i % 2]}/carts/${id}/checkout`, { method: "POST" })),
    );
    assert.deepEqual([...new Set(accepted.map((r) => r.status))], [202]);
    const retried = await expectExactlyOneOrderPerCart(ids);
    assert.equal(retried, "0", "no job was claimed twice");
  });

  it("SIGKILL one instance half-way, with a job in hand: the other retries it after the lease, still 100 orders", async () => {
    group = await startInstances(2, { JOB_LEASE_MS: "1000", JOB_POLL_MS: "50" });
    const [a, b] = group.servers;
    const ids = await carts([a.url, b.url]);
    const half = ids.length / 2;
    const checkout = (id: string, i: number) => call(`${[a, b][i % 2].url}/carts/${id}/checkout`, { method: "POST" });
    const first = await Promise.all(ids.slice(0, half).map(checkout));
    assert.deepEqual([...new Set(first.map((r) => r.status))], [202]);

    // Hold inserts into orders: each instance's worker claims a job and blocks mid-transaction — a job in hand.
    const locker = new pg.Client({ connectionString: group.database.url });
    await locker.connect();
    try {
      await locker.query("begin");
      await locker.query("lock table orders in share mode");
      const second = await Promise.all(ids.slice(half).map((id, i) => checkout(id, i)));
      assert.deepEqual([...new Set(second.map((r) => r.status))], [202]);
      for (let running = 0; running < 2; await new Promise((r) => setTimeout(r, 20))) {
        running = Number((await locker.query("select count(*) as n from jobs where status = 'RUNNING'")).rows[0].n);
      }
      b.child.kill("SIGKILL");
      assert.equal(await b.exited, null, "B was killed");
    } finally {
      await locker.query("commit");
      await locker.end();
    }
    const retried = await expectExactlyOneOrderPerCart(ids);
    assert.equal(retried, "1", "the job B held was claimed again after its lease, and only that one");
  });
});

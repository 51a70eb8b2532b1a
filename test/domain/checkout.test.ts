// Checkout across two workers (two pools on PostgreSQL, as two instances): 100 checkouts make 100 orders, each job
// run once, whichever worker claims it.
import assert from "node:assert/strict";
import type { Store } from "../../packages/twinspec/src/store/database.js";
import { testDatabaseKind } from "../support/database.js";
import { storesPerTest } from "../support/queues.js";
import { until } from "../support/wait.js";
import { domainOn } from "../support/services.js";

const postgres = testDatabaseKind() === "postgres";

describe(`checkout jobs on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  const { open, queues } = storesPerTest();
  const count = async (store: Store, status?: string) => {
    let q = store.db.selectFrom("jobs").select((eb) => eb.fn.countAll<number>().as("n"));
    if (status) q = q.where("status", "=", status);
    return (await q.executeTakeFirstOrThrow()).n;
  };

  it(`two workers${postgres ? " (two pools, as two instances)" : ""}, 100 checkouts → 100 orders, each job run once`, async () => {
    const first = await open();
    // SQLite is one instance's file: its workers share the one connection. PostgreSQL: one pool each.
    const second = postgres ? await open() : first;
    const { services: a, queue: qa } = domainOn(first, { queue: { pollMs: 20, leaseMs: 5_000 } });
    const { services: b, queue: qb } = domainOn(second, { queue: { pollMs: 20, leaseMs: 5_000 } });
    queues.push(qa, qb);
    const customer = await a.customers.create({ firstName: "A", lastName: "B", email: "jobs@example.com" });
    const carts = [];
    for (let i = 0; i < 100; i++)
      carts.push(await a.carts.create(customer.customerId, { items: [{ sku: `s${i}`, quantity: 1, unitPrice: i }] }));
    const jobs = await Promise.all(carts.map((cart, i) => (i % 2 ? a : b).carts.checkout(cart.cartId)));
    qa.start();
    qb.start();
    await until(async () => (await count(first, "SUCCEEDED")) === 100, "every job to succeed");
    const orders = await first.db.selectFrom("orders").select(["order_id", "items"]).execute();
    assert.equal(orders.length, 100);
    assert.deepEqual(orders.map((o) => JSON.parse(o.items)[0].sku).sort(), carts.map((_, i) => `s${i}`).sort());
    const attempts = await first.db.selectFrom("jobs").select("attempts").execute();
    assert.ok(
      attempts.every((j) => j.attempts === 1),
      "no job was claimed twice",
    );
    assert.equal(jobs.length, 100);
  });
});

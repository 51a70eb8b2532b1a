// Domain rules that must hold under concurrency on both databases (this file runs in both passes of npm test):
// read-check-write transactions serialize per row as SQLite's single writer does, and POST-like creates repeat.
import assert from "node:assert/strict";
import type { Services } from "../../generated/wiring.js";
import { ConflictError, MovedError } from "../../packages/twinspec/src/domain/errors.js";
import type { JobQueue } from "../../packages/twinspec/src/store/job-queue.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";
import { domainOn } from "../support/services.js";

describe(`domain under concurrency on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let services: Services;
  let queue: JobQueue;
  let events: string[];
  beforeEach(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    const domain = domainOn(store);
    ({ services, queue } = domain);
    events = [];
    domain.bus.subscribe("orderStatusChanged", (e) => events.push(`${e.orderId}:${e.status}`));
  });
  afterEach(async () => {
    await queue.stop();
    await store.close();
    await database.drop();
  });
  const customer = (n: number | string) =>
    services.customers.create({ firstName: "A", lastName: "B", email: `s${n}@example.com` });

  it("the same customer created twice is two customers (POST creates each time)", async () => {
    const a = await customer("same");
    const b = await customer("same");
    assert.notEqual(a.customerId, b.customerId);
    assert.equal((await services.customers.get(b.customerId)).email, "ssame@example.com");
  });

  it("10 checkouts of one cart at once make one job; the rest are told it is checked out", async () => {
    const c = await customer(2);
    const cart = await services.carts.create(c.customerId, { items: [{ sku: "x", quantity: 1, unitPrice: 1 }] });
    await queue.stop();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => services.carts.checkout(cart.cartId)));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    for (const r of results)
      if (r.status === "rejected") assert.ok(r.reason instanceof ConflictError, String(r.reason));
    const { n } = await store.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(n, 1);
  });

  it("10 unconditional status changes at once: each sees the one before (no 412 without If-Match), one event", async () => {
    const c = await customer(3);
    const order = await services.orders.place(c.customerId, { items: [{ sku: "x", quantity: 1, unitPrice: 1 }] });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => services.orders.changeStatus(order.orderId, "PAID")),
    );
    assert.ok(results.every((o) => o.status === "PAID" && o.version === 2));
    assert.deepEqual(events, [`${order.orderId}:PAID`]);
  });

  it("a merge racing with new orders leaves none behind on the merged customer", async () => {
    const from = await customer(4);
    const into = await customer(5);
    const placing = Array.from({ length: 20 }, (_, i) =>
      new Promise((r) => setTimeout(r, i)).then(() =>
        services.orders.place(from.customerId, { items: [{ sku: `s${i}`, quantity: 1, unitPrice: 1 }] }),
      ),
    );
    const merging = new Promise((r) => setTimeout(r, 8)).then(() =>
      services.customers.merge(from.customerId, into.customerId),
    );
    const placed = await Promise.allSettled(placing);
    await merging;
    for (const r of placed) if (r.status === "rejected") assert.ok(r.reason instanceof MovedError, String(r.reason));
    const left = await store.db
      .selectFrom("orders")
      .select("order_id")
      .where("customer_id", "=", from.customerId)
      .execute();
    assert.deepEqual(left, []);
    const moved = await store.db
      .selectFrom("orders")
      .select("order_id")
      .where("customer_id", "=", into.customerId)
      .execute();
    assert.equal(moved.length, placed.filter((r) => r.status === "fulfilled").length);
  });
});

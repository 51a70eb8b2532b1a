// The store behaves the same on SQLite and PostgreSQL (this file runs in both passes of npm test): numbers come
// back as numbers, text sorts byte-wise, the partial unique index, migrations that run twice or at once, and
// read-check-write transactions that serialize per row as SQLite's single writer does.
import assert from "node:assert/strict";
import { sql } from "kysely";
import pino from "pino";
import { createServices, type Services } from "../../src/domain/services.js";
import { ConflictError, MovedError } from "../../src/domain/errors.js";
import { InProcessBus } from "../../src/store/events.js";
import { openStore, type Store } from "../../src/store/database.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";

const silent = pino({ level: "silent" });

describe(`store on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let services: Services;
  let events: string[];
  beforeEach(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    const bus = new InProcessBus();
    events = [];
    bus.subscribe("orderStatusChanged", (e) => events.push(`${e.orderId}:${e.status}`));
    services = createServices(store, bus, silent);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });
  const customer = (n: number | string) => services.customers.create({ firstName: "A", lastName: "B", email: `s${n}@example.com` });

  it("reports its dialect", () => assert.equal(store.dialect, testDatabaseKind()));

  it("a PostgreSQL URL that cannot be reached is refused with where and why, without the password", async () => {
    await assert.rejects(openStore("postgres://me:secret@127.0.0.1:1/nowhere"), (e: Error) => {
      assert.match(e.message, /^cannot use PostgreSQL at 127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/);
      assert.doesNotMatch(e.message, /secret/);
      return true;
    });
  });

  it("totals, versions and counts come back as JS numbers", async () => {
    const c = await customer(1);
    const placed = await services.orders.place(c.customerId, { items: [{ sku: "x", quantity: 3, unitPrice: 0.1 }, { sku: "y", quantity: 1, unitPrice: 19.99 }] });
    const row = await store.db.selectFrom("orders").select(["total", "version"]).where("order_id", "=", placed.orderId).executeTakeFirstOrThrow();
    assert.equal(typeof row.total, "number");
    assert.equal(row.total, placed.total);
    assert.equal(row.version, 1);
    const { n } = await store.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    assert.equal(n, 1);
    const { sum } = await store.db.selectFrom("orders").select((eb) => eb.fn.sum<number>("version").as("sum")).executeTakeFirstOrThrow();
    assert.equal(sum, 1);
    assert.equal((await services.orders.get(placed.orderId)).total, placed.total);
  });

  it("text sorts byte-wise (upper case before lower, '_' between), so ids and cursors order alike on both", async () => {
    const ids = ["b", "B", "_a", "a-1", "A_1", "Zz", "z"];
    for (const [i, id] of ids.entries()) await services.customers.create({ firstName: "A", lastName: "B", email: `sort${i}@example.com` }, id);
    const at = "2030-01-01T00:00:00.000Z";
    await store.db.updateTable("customers").set({ created_at: at }).execute();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await services.customers.list({ limit: 2, cursor });
      seen.push(...page.items.map((c) => c.customerId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [...ids].sort());
  });

  it("one live customer per email; a deleted one frees it (partial unique index)", async () => {
    const first = await customer("dup");
    await assert.rejects(customer("dup"), ConflictError);
    await services.customers.delete(first.customerId);
    await customer("dup");
  });

  it("migrations run once: opening the same database again, and three times at once, changes nothing", async () => {
    const again = await Promise.all([openStore(database.url), openStore(database.url), openStore(database.url)]);
    await Promise.all(again.map((s) => s.close()));
    const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    assert.deepEqual(names.rows.map((r) => r.name), ["001_customers", "002_orders_carts_jobs", "003_idempotency_keys"]);
  });

  it("10 checkouts of one cart at once make one job; the rest are told it is checked out", async () => {
    const c = await customer(2);
    const cart = await services.carts.create(c.customerId, { items: [{ sku: "x", quantity: 1, unitPrice: 1 }] });
    services.queue.stop();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => services.carts.checkout(cart.cartId)));
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    for (const r of results) if (r.status === "rejected") assert.ok(r.reason instanceof ConflictError, String(r.reason));
    const { n } = await store.db.selectFrom("jobs").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    assert.equal(n, 1);
  });

  it("10 unconditional status changes at once: each sees the one before (no 412 without If-Match), one event", async () => {
    const c = await customer(3);
    const order = await services.orders.place(c.customerId, { items: [{ sku: "x", quantity: 1, unitPrice: 1 }] });
    const results = await Promise.all(Array.from({ length: 10 }, () => services.orders.changeStatus(order.orderId, "PAID")));
    assert.ok(results.every((o) => o.status === "PAID" && o.version === 2));
    assert.deepEqual(events, [`${order.orderId}:PAID`]);
  });

  it("a merge racing with new orders leaves none behind on the merged customer", async () => {
    const from = await customer(4);
    const into = await customer(5);
    const placing = Array.from({ length: 20 }, (_, i) =>
      new Promise((r) => setTimeout(r, i)).then(() => services.orders.place(from.customerId, { items: [{ sku: `s${i}`, quantity: 1, unitPrice: 1 }] })),
    );
    const merging = new Promise((r) => setTimeout(r, 8)).then(() => services.customers.merge(from.customerId, into.customerId));
    const placed = await Promise.allSettled(placing);
    await merging;
    for (const r of placed) if (r.status === "rejected") assert.ok(r.reason instanceof MovedError, String(r.reason));
    const left = await store.db.selectFrom("orders").select("order_id").where("customer_id", "=", from.customerId).execute();
    assert.deepEqual(left, []);
    const moved = await store.db.selectFrom("orders").select("order_id").where("customer_id", "=", into.customerId).execute();
    assert.equal(moved.length, placed.filter((r) => r.status === "fulfilled").length);
  });
});

// The durable event bus woken by LISTEN/NOTIFY (PostgreSQL pass only): two buses on one schema behave as two
// instances — an event published on one reaches the other's listeners once and its own listeners once; other
// schemas hear nothing; a listening connection killed by the server is re-established (backoff), /readyz says so
// meanwhile, and what was published while it was down is delivered when it is back (read from the log; the poll
// is set far beyond the test, so only the reconnection can have done it).
import assert from "node:assert/strict";
import pg from "pg";
import pino from "pino";
import { until as waitUntil } from "../support/wait.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import type { OrderStatusChanged } from "../../src/domain/orders.js";
import { readiness } from "../../packages/twinspec/src/store/health.js";
import { listenerName } from "../../packages/twinspec/src/store/pg-events.js";
import { busFor } from "../../packages/twinspec/src/store/bus.js";
import type { DurableBus } from "../../packages/twinspec/src/store/durable-bus.js";
import { freshDatabase, testDatabaseKind, testPostgresUrl, type TestDatabase } from "../support/database.js";

const silent = pino({ level: "silent" });
const event = (status: OrderStatusChanged["status"]): OrderStatusChanged => ({
  orderId: "ord_1",
  customerId: "cus_1",
  status,
  sentAt: new Date().toISOString(),
});

const until = (condition: () => boolean, what: string, ms = 5_000) => waitUntil(condition, what, ms, 10);

(testDatabaseKind() === "postgres" ? describe : describe.skip)("PostgreSQL event bus (LISTEN/NOTIFY)", function () {
  this.timeout(20_000);
  const databases: TestDatabase[] = [];
  const stores: Store[] = [];
  const buses: DurableBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await Promise.all(databases.splice(0).map((d) => d.drop()));
  });
  async function instance(database: TestDatabase) {
    const store = await openStore(database.url);
    const bus = busFor(store, silent, { minBackoffMs: 300, maxBackoffMs: 600, heartbeatMs: 200, pollMs: 600_000 });
    stores.push(store);
    buses.push(bus);
    await bus.ready();
    const got: string[] = [];
    bus.subscribe("orderStatusChanged", (e) => got.push(e.status));
    return { store, bus, got };
  }
  const fresh = async () => {
    const d = await freshDatabase();
    databases.push(d);
    return d;
  };

  it("an event published on A reaches B's listeners, and A's own listeners exactly once", async () => {
    const db = await fresh();
    const a = await instance(db);
    const b = await instance(db);
    await a.bus.publish("orderStatusChanged", event("PAID"));
    assert.deepEqual(a.got, ["PAID"], "delivered locally before publish resolves");
    await until(() => b.got.length === 1, "B to hear it");
    await b.bus.publish("orderStatusChanged", event("SHIPPED"));
    await until(() => a.got.length === 2, "A to hear B");
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(a.got, ["PAID", "SHIPPED"]);
    assert.deepEqual(b.got, ["PAID", "SHIPPED"]);
  });

  it("buses on another schema of the same database hear nothing", async () => {
    const a = await instance(await fresh());
    const other = await instance(await fresh());
    await a.bus.publish("orderStatusChanged", event("PAID"));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(other.got, []);
  });

  it("when the server ends the listening connection, the bus reconnects and hears events again; /readyz tells meanwhile", async () => {
    const db = await fresh();
    const a = await instance(db);
    const b = await instance(db);
    assert.equal((await readiness(b.store, b.bus)).ready, true);
    const admin = new pg.Client({ connectionString: testPostgresUrl() });
    await admin.connect();
    try {
      // Both buses' listening connections are ended by the server; B's is what we watch.
      const { rowCount } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
        [listenerName(b.store.postgres!.schema)],
      );
      assert.ok(rowCount! >= 1, "found the listening connections");
    } finally {
      await admin.end();
    }
    await until(() => !b.bus.listening, "B to notice");
    const during = await readiness(b.store, b.bus);
    assert.equal(during.ready, false);
    assert.equal(during.body.events, "reconnecting");
    await a.bus.publish("orderStatusChanged", event("PAID"));
    await until(() => Boolean(a.bus.listening && b.bus.listening), "both to listen again");
    await until(() => b.got.includes("PAID"), "B to read what it missed");
    await a.bus.publish("orderStatusChanged", event("DELIVERED"));
    await until(() => b.got.includes("DELIVERED"), "B to hear events again");
    assert.deepEqual(b.got, ["PAID", "DELIVERED"], "each once, in order");
    assert.equal((await readiness(b.store, b.bus)).ready, true);
  });
});

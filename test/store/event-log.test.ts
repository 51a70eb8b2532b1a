// The event log and the durable bus on each database: events written by concurrent transactions are read back in
// position order with none skipped; a rolled-back transaction leaves nothing; the prune deletes what is past the
// retention and moves the horizon, but never past a webhook endpoint's cursor; a bus that never hears a wake
// still delivers (its poll), each event once.
import assert from "node:assert/strict";
import pino from "pino";
import type { OrderStatusChanged } from "../../src/domain/orders.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import { DurableBus } from "../../packages/twinspec/src/store/durable-bus.js";
import { EventLog } from "../../packages/twinspec/src/store/event-log.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";
import { until } from "../support/wait.js";

const silent = pino({ level: "silent" });
const event = (n: number): OrderStatusChanged => ({
  orderId: `ord_${n}`,
  customerId: "cus_1",
  status: "PAID",
  sentAt: new Date().toISOString(),
});

describe(`event log on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let log: EventLog;
  beforeEach(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    log = new EventLog(store.db);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it("events of concurrent transactions are read in position order, none skipped; a rollback leaves none", async () => {
    const seen: number[] = [];
    let reading = true;
    // A reader following the log while 10 writers append 20 events each: the positions it sees only grow.
    const reader = (async () => {
      let position = 0;
      while (reading || position < (await log.head())) {
        for (const e of await log.read(position, 50)) {
          assert.ok(e.position > position, `${e.position} after ${position}`);
          position = e.position;
          seen.push(Number((e.event as OrderStatusChanged).orderId.slice(4)));
        }
      }
    })();
    await Promise.all(
      Array.from({ length: 10 }, (_, w) =>
        (async () => {
          for (let i = 0; i < 20; i++)
            await store.db.transaction().execute((trx) => log.append(trx, "orderStatusChanged", event(w * 100 + i)));
        })(),
      ),
    );
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await log.append(trx, "orderStatusChanged", event(9999));
        throw new Error("rolled back");
      }),
    );
    reading = false;
    await reader;
    assert.equal(seen.length, 200, "every event, once");
    assert.equal(new Set(seen).size, 200);
    assert.ok(!seen.includes(9999), "nothing of the rolled-back transaction");
  });

  it("the prune deletes what is past the retention and moves the horizon past it", async () => {
    for (let i = 0; i < 5; i++) await log.append(store.db, "orderStatusChanged", event(i));
    const [, , third] = await log.read(0, 10);
    assert.equal(await log.horizon(), 0);
    assert.equal(await log.prune(Date.now() + 1000), 5);
    assert.equal(await log.horizon(), third.position + 2, "pruned through the last one");
    assert.equal(await log.head(), await log.horizon(), "the head stays where it was");
    assert.deepEqual(await log.read(0, 10), []);
    assert.equal(await log.prune(Date.now() + 1000), 0, "nothing left to prune");
  });

  it("the prune keeps what a webhook endpoint has still to deliver: the slowest cursor holds it back", async () => {
    for (let i = 0; i < 5; i++) await log.append(store.db, "orderStatusChanged", event(i));
    const [first, second] = await log.read(0, 10);
    const now = new Date().toISOString();
    await store.db
      .insertInto("twinspec_webhook_endpoints")
      .values({
        endpoint_id: "whe_slow",
        owner: null,
        url: "https://example.com/hook",
        events: "[]",
        secrets: "[]",
        position: second.position,
        created_at: now,
        updated_at: now,
      })
      .execute();
    assert.equal(await log.prune(Date.now() + 1000), 2, "only the two the endpoint is done with");
    assert.equal(await log.horizon(), second.position);
    assert.equal((await log.read(0, 10))[0].position, second.position + 1, "the next one it delivers is still there");
    assert.ok(first.position < second.position);
    await store.db.deleteFrom("twinspec_webhook_endpoints").execute();
    assert.equal(await log.prune(Date.now() + 1000), 3, "with no endpoint left, the rest goes");
  });

  it("a bus that is never woken still delivers each event once, in order (the poll)", async () => {
    const bus = new DurableBus(store.db, silent, { pollMs: 50 });
    try {
      await bus.ready();
      const got: string[] = [];
      bus.subscribe("orderStatusChanged", (e, id) => got.push(`${id} ${e.orderId}`));
      // Written behind the bus's back: no publish, so no wake.
      for (let i = 0; i < 3; i++) await log.append(store.db, "orderStatusChanged", event(i));
      await until(() => got.length === 3, "the poll to deliver", 5_000, 10);
      await new Promise((r) => setTimeout(r, 150));
      const events = await log.read(0, 10);
      assert.deepEqual(
        got,
        events.map((e) => `${e.position} ${(e.event as OrderStatusChanged).orderId}`),
      );
    } finally {
      await bus.close();
    }
  });
});

// Nothing lost across instances, under faults (PostgreSQL pass). Instance A reaches the database through a TCP proxy
// the test can cut; B writes.
// - A subscriber on A drops its connection, B makes 50 changes over REST and GraphQL, the subscriber resumes on A
//   with its last id: exactly those 50, in order, over graphql-ws, over SSE and the REST event stream (Last-Event-ID).
// - A loses its database (its listener with it) while B writes 50 changes; A's subscriber, connected throughout,
//   receives all 50 once A is back, in order, once each.
// - B is SIGKILLed right after a change is acknowledged: a subscriber on A receives the event.
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../support/server.js";
import { freshDatabase, testPostgresUrl, type TestDatabase } from "../support/database.js";
import { TcpProxy, type Cut } from "../support/tcp-proxy.js";
import { onPostgres, startInstances } from "../support/instances.js";
import { mergePatch } from "../support/fixtures.js";
import { call } from "../support/server.js";
import {
  assertIncreasing,
  changes,
  newCustomer,
  newOrder,
  readWs,
  sse,
  wsClient,
  type Received,
} from "../support/events.js";
import { restStream } from "../support/rest-events.js";
import { until as waitUntil } from "../support/wait.js";

const until = (condition: () => boolean | Promise<boolean>, what: string, ms = 15_000) =>
  waitUntil(condition, what, ms, 10);

(onPostgres ? describe : describe.skip)("events across instances, under faults", function () {
  this.timeout(90_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let a: TestServer;
  let b: TestServer;
  const listeners = () => a.app.bus.listenerCount("orderStatusChanged");

  beforeEach(async () => {
    database = await freshDatabase("postgres");
    const target = new URL(testPostgresUrl());
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    a = await startServer({
      database: { ...database, url: proxy.url(database.url) },
      store: { availability: { pingMs: 100, pingTimeoutMs: 400 } },
    });
    b = await startServer({ database });
  });
  afterEach(async () => {
    await proxy.restore().catch(() => {});
    await a.close();
    await b.close();
    await proxy.close();
    await database.drop();
  });

  /** A subscriber on A that has seen one change made through B: the id it holds. */
  async function seenOnA(customerId: string): Promise<string> {
    const client = wsClient(a.url);
    const got: Received[] = [];
    const reading = readWs(client, customerId, got);
    await until(() => listeners() === 1, "the subscription to listen");
    const [made] = await changes(b.url, customerId, 1);
    await until(() => got.length === 1, "the first change, through B");
    assert.equal(got[0].change, made);
    await client.dispose();
    await reading;
    await until(() => listeners() === 0, "the listener to be freed");
    return got[0].id;
  }

  it("a subscriber that drops, misses 50 changes made on B and resumes on A receives each once, in order: graphql-ws, SSE and the REST event stream", async () => {
    const customerId = await newCustomer(b.url, 1);
    const last = await seenOnA(customerId);
    const missed = await changes(b.url, customerId, 50);
    const client = wsClient(a.url);
    const got: Received[] = [];
    const reading = readWs(client, customerId, got, last);
    await until(() => got.length === 50, "the 50 missed changes over graphql-ws");
    const stream = sse(a.url, customerId, last);
    await until(() => stream.changes().length === 50, "the 50 missed changes over SSE");
    const rest = restStream(a.url, customerId, { lastEventId: last });
    await until(() => rest.changes().length === 50, "the 50 missed changes over the REST event stream");
    const [live] = await changes(b.url, customerId, 1);
    await until(
      () => got.length === 51 && stream.changes().length === 51 && rest.changes().length === 51,
      "the live change on all three",
    );
    await new Promise((r) => setTimeout(r, 200));
    for (const received of [got, stream.changes(), rest.changes()]) {
      assert.deepEqual(
        received.map((g) => g.change),
        [...missed, live],
      );
      assertIncreasing(received);
    }
    assert.deepEqual(
      stream.changes().map((g) => g.id),
      got.map((g) => g.id),
      "the same ids on both transports",
    );
    assert.deepEqual(
      rest.changes().map((g) => g.id),
      got.map((g) => g.id),
      "the same ids over REST",
    );
    await client.dispose();
    await reading;
    await stream.stop();
    await rest.stop();
    await until(() => listeners() === 0, "every listener freed");
  });

  for (const how of ["refuse", "blackhole"] satisfies Cut[]) {
    it(`${how}: A loses its database listener while B writes 50 changes; A's subscriber receives all 50 after recovery`, async () => {
      const customerId = await newCustomer(b.url, 2);
      const client = wsClient(a.url);
      const got: Received[] = [];
      const reading = readWs(client, customerId, got);
      await until(() => listeners() === 1, "the subscription to listen");
      await proxy.cut(how);
      await until(() => a.app.bus.listening === false, "A to notice its listener is gone");
      const made = await changes(b.url, customerId, 50);
      assert.equal(got.length, 0, "nothing reached A while it was cut off");
      await proxy.restore();
      await until(() => got.length >= 50, "A's subscriber to receive the 50 changes");
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        got.map((g) => g.change),
        made,
      );
      assertIncreasing(got);
      await client.dispose();
      await reading;
    });
  }
});

(onPostgres ? describe : describe.skip)("SIGKILL of the writing instance", function () {
  this.timeout(90_000);

  it("right after a change is acknowledged, the event is delivered to a subscriber on another instance", async () => {
    const group = await startInstances(2, { DATABASE_POOL_MAX: "4" });
    try {
      const [a, b] = group.servers;
      const customerId = await newCustomer(b.url, 3);
      const orderId = await newOrder(b.url, customerId);
      const client = wsClient(a.url);
      const got: Received[] = [];
      const reading = readWs(client, customerId, got);
      // Live once it hears a probe: an order of the customer cancelled through A.
      await until(async () => {
        const probe = await newOrder(a.url, customerId);
        await call(`${a.url}/orders/${probe}`, mergePatch({ status: "CANCELLED" }));
        await new Promise((r) => setTimeout(r, 100));
        return got.length > 0;
      }, "the subscription on A to be live");
      got.splice(0);
      const paid = await call(`${b.url}/orders/${orderId}`, mergePatch({ status: "PAID" }));
      b.child.kill("SIGKILL");
      assert.equal(paid.status, 200, paid.text);
      await b.exited;
      await until(() => got.length === 1, "A's subscriber to receive the change B acknowledged before it died");
      assert.equal(got[0].change, `${orderId} PAID`);
      await client.dispose();
      await reading;
    } finally {
      await group.stop();
    }
  });
});

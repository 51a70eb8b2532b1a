// Subscriptions that resume from the event log (both databases): a subscriber that disconnects while 50 changes
// are made over REST and GraphQL, and comes back with the last id it saw, receives exactly those 50, in order, then
// live ones — over graphql-ws (`after`) and SSE (`Last-Event-ID`, each message with `id:`). An id older than the
// retention answers EVENTS_EXPIRED; a malformed one BAD_USER_INPUT; a reader that falls behind is ended with
// EVENTS_OVERFLOW and its last id, from which it resumes without a gap.
import assert from "node:assert/strict";
import type { DurableBus } from "../../packages/twinspec/src/store/durable-bus.js";
import { EventsOverflowError, LiveStreams } from "../../packages/twinspec/src/graphql/streams.js";
import { startServer, type TestServer } from "../support/server.js";
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
import { until } from "./helpers.js";

describe("resumable subscriptions", function () {
  this.timeout(60_000);
  let s: TestServer;
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  beforeEach(async () => (s = await startServer()));
  afterEach(() => s.close());

  /** A first change seen live: the id a subscriber holds when its connection drops. */
  async function lastSeen(customerId: string): Promise<string> {
    const client = wsClient(s.url);
    const got: Received[] = [];
    const reading = readWs(client, customerId, got);
    await until(() => listeners() === 1, "the subscription to listen");
    const [made] = await changes(s.url, customerId, 1);
    await until(() => got.length === 1, "the first change");
    assert.equal(got[0].change, made);
    await client.dispose();
    await reading;
    await until(() => listeners() === 0, "the listener to be freed");
    return got[0].id;
  }

  it("graphql-ws: resuming with after receives exactly the 50 changes missed, in order, then live ones", async () => {
    const customerId = await newCustomer(s.url, 1);
    const other = await newCustomer(s.url, 2);
    const last = await lastSeen(customerId);
    const missed = await changes(s.url, customerId, 50);
    await changes(s.url, other, 3);
    const client = wsClient(s.url);
    const got: Received[] = [];
    const reading = readWs(client, customerId, got, last);
    try {
      await until(() => got.length === 50, "the 50 missed changes", 10_000);
      const [live] = await changes(s.url, customerId, 1);
      await until(() => got.length === 51, "the live change");
      assert.deepEqual(
        got.map((g) => g.change),
        [...missed, live],
      );
      assertIncreasing(got);
      assert.ok(Number(got[0].id) > Number(last));
    } finally {
      await client.dispose();
      await reading;
    }
  });

  it("SSE: each message carries id:, and a reconnect with Last-Event-ID resumes the same way", async () => {
    const customerId = await newCustomer(s.url, 3);
    const first = sse(s.url, customerId);
    await until(() => listeners() === 1, "the SSE subscription to listen");
    const [made] = await changes(s.url, customerId, 1);
    await until(() => first.changes().length === 1, "the first change");
    const [seen] = first.changes();
    assert.equal(seen.change, made);
    await first.stop();
    await until(() => listeners() === 0, "the listener to be freed");
    const missed = await changes(s.url, customerId, 50);
    const again = sse(s.url, customerId, seen.id);
    try {
      await until(() => again.changes().length === 50, "the 50 missed changes", 10_000);
      const [live] = await changes(s.url, customerId, 1);
      await until(() => again.changes().length === 51, "the live change");
      assert.deepEqual(
        again.changes().map((g) => g.change),
        [...missed, live],
      );
      assertIncreasing([seen, ...again.changes()]);
    } finally {
      await again.stop();
    }
  });

  it("an id older than the retention → EVENTS_EXPIRED (graphql-ws and SSE); a malformed id → BAD_USER_INPUT", async () => {
    const customerId = await newCustomer(s.url, 4);
    const last = await lastSeen(customerId);
    await changes(s.url, customerId, 2);
    // Everything written up to now is past the retention: pruned.
    assert.ok((await (s.app.bus as DurableBus).prune(Date.now() + 24 * 3600_000 + 1000)) >= 3);
    const client = wsClient(s.url);
    try {
      const errors = (await readWs(client, customerId, [], last)) as { extensions: { code: string } }[];
      assert.equal(errors?.[0]?.extensions.code, "EVENTS_EXPIRED", JSON.stringify(errors));
      const malformed = (await readWs(client, customerId, [], "yesterday")) as {
        extensions: { code: string; argument: string };
      }[];
      assert.equal(malformed?.[0]?.extensions.code, "BAD_USER_INPUT", JSON.stringify(malformed));
      assert.equal(malformed[0].extensions.argument, "after");
    } finally {
      await client.dispose();
    }
    const stream = sse(s.url, customerId, last);
    await stream.done;
    const next = stream.got.find((m) => m.event === "next");
    assert.equal(
      JSON.parse(next?.data ?? "{}").errors?.[0]?.extensions.code,
      "EVENTS_EXPIRED",
      JSON.stringify(stream.got),
    );
    assert.equal(listeners(), 0);
  });

  it("a reader that falls behind is ended with EVENTS_OVERFLOW and its last id; resuming from it loses nothing", async () => {
    const customerId = await newCustomer(s.url, 5);
    const streams = new LiveStreams(5);
    const slow = await streams.listen(s.app.bus, "orderStatusChanged", (e) => e.customerId === customerId);
    const made = await changes(s.url, customerId, 8);
    const read: string[] = [];
    let ended: unknown;
    try {
      for (;;) {
        const step = await slow.next();
        if (step.done) break;
        read.push(`${step.value.orderId} ${step.value.status}`);
      }
    } catch (error) {
      ended = error;
    }
    assert.ok(ended instanceof EventsOverflowError, String(ended));
    assert.deepEqual(read, made.slice(0, 5), "what it held is served before it ends");
    assert.equal(ended.lastEventId, slow.lastEventId);
    assert.equal(listeners(), 0, "its listener is freed");
    const resumed = await streams.listen(
      s.app.bus,
      "orderStatusChanged",
      (e) => e.customerId === customerId,
      ended.lastEventId,
    );
    const rest: string[] = [];
    while (rest.length < 3) {
      const step = await resumed.next();
      rest.push(`${step.value!.orderId} ${step.value!.status}`);
    }
    assert.deepEqual(rest, made.slice(5));
    await resumed.return(undefined);
  });

  it("a change that rolls back publishes nothing: the event is written in the change's transaction", async () => {
    const customerId = await newCustomer(s.url, 6);
    const orderId = await newOrder(s.url, customerId);
    const before = await (s.app.bus as DurableBus).read("orderStatusChanged", 0, 10_000);
    await assert.rejects(
      s.store.db.transaction().execute(async (trx) => {
        await s.app.bus.publish(
          "orderStatusChanged",
          { orderId, customerId, status: "PAID", sentAt: new Date().toISOString() },
          trx,
        );
        throw new Error("rolled back");
      }),
      /rolled back/,
    );
    assert.equal((await (s.app.bus as DurableBus).read("orderStatusChanged", 0, 10_000)).length, before.length);
  });
});

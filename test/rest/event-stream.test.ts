// The REST event stream (GET /customers/{customerId}/order-events, served from Subscription.orderStatusChanged) on a
// real server, both databases: changes made over REST and GraphQL arrive with the same ids as over graphql-ws; a
// client that disconnects, misses 50 changes and reconnects with Last-Event-ID receives exactly those, in order;
// an expired id → 410, another owner → 403, no token → 401; closing the connection frees the listener.
import assert from "node:assert/strict";
import type { DurableBus } from "../../packages/twinspec/src/store/durable-bus.js";
import { token } from "../support/auth.js";
import { assertIncreasing, changes, newCustomer, readWs, wsClient, type Received } from "../support/events.js";
import { restStream } from "../support/rest-events.js";
import { startServer, type TestServer } from "../support/server.js";
import { until } from "../graphql/helpers.js";

describe("REST event stream", function () {
  this.timeout(60_000);
  let s: TestServer;
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  beforeEach(async () => (s = await startServer()));
  afterEach(() => s.close());

  it("receives changes made over REST and GraphQL, with the ids graphql-ws gives them; closing frees the listener", async () => {
    const customerId = await newCustomer(s.url, 1);
    const stream = restStream(s.url, customerId);
    const client = wsClient(s.url);
    const overWs: Received[] = [];
    const reading = readWs(client, customerId, overWs);
    try {
      // The subscription listens before the answer's head reaches the client.
      await until(() => listeners() === 2 && stream.head() !== undefined, "both subscriptions to listen");
      const head = stream.head()!;
      assert.equal(head.status, 200);
      assert.match(head.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(head.headers.get("content-encoding"), null, "an event stream is not compressed");
      const made = await changes(s.url, customerId, 4);
      await until(() => stream.changes().length === 4 && overWs.length === 4, "the 4 changes on both");
      assert.deepEqual(
        stream.changes().map((c) => c.change),
        made,
      );
      assert.deepEqual(stream.changes(), overWs);
      assertIncreasing(stream.changes());
    } finally {
      await stream.stop();
      await client.dispose();
      await reading;
    }
    await until(() => listeners() === 0, "the listeners to be freed");
  });

  it("a client that drops, misses 50 changes and reconnects with Last-Event-ID receives exactly those, in order, then live ones", async () => {
    const customerId = await newCustomer(s.url, 2);
    const other = await newCustomer(s.url, 3);
    const first = restStream(s.url, customerId);
    await until(() => listeners() === 1, "the stream to listen");
    const [made] = await changes(s.url, customerId, 1);
    await until(() => first.changes().length === 1, "the first change");
    const [seen] = first.changes();
    assert.equal(seen.change, made);
    await first.stop();
    await until(() => listeners() === 0, "the listener to be freed");
    const missed = await changes(s.url, customerId, 50);
    await changes(s.url, other, 3);
    const again = restStream(s.url, customerId, { lastEventId: seen.id });
    try {
      await until(() => again.changes().length === 50, "the 50 missed changes", 10_000);
      const [live] = await changes(s.url, customerId, 1);
      await until(() => again.changes().length === 51, "the live change");
      assert.deepEqual(
        again.changes().map((c) => c.change),
        [...missed, live],
      );
      assertIncreasing([seen, ...again.changes()]);
    } finally {
      await again.stop();
    }
    await until(() => listeners() === 0, "the listener to be freed");
  });

  it("an id older than the retention → 410 problem+json; a malformed one → 400", async () => {
    const customerId = await newCustomer(s.url, 4);
    const first = restStream(s.url, customerId);
    await until(() => listeners() === 1, "the stream to listen");
    await changes(s.url, customerId, 3);
    await until(() => first.changes().length === 3, "the changes");
    await first.stop();
    assert.ok((await (s.app.bus as DurableBus).prune(Date.now() + 24 * 3600_000 + 1000)) >= 3);
    const expired = await restStream(s.url, customerId, { lastEventId: first.changes()[0].id }).done;
    assert.equal(expired.status, 410, expired.body);
    const problem = JSON.parse(expired.body) as { type: string; status: number };
    assert.equal(problem.type, "urn:twinspec:problem:expired");
    assert.equal(problem.status, 410);
    const malformed = await restStream(s.url, customerId, { lastEventId: "yesterday" }).done;
    assert.equal(malformed.status, 400, malformed.body);
    assert.equal(listeners(), 0);
  });

  it("HEAD answers the stream's head and leaves no listener behind", async () => {
    const customerId = await newCustomer(s.url, 7);
    const res = await fetch(`${s.url}/customers/${customerId}/order-events`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${await token(customerId, "orders:read")}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    await until(() => listeners() === 0, "no listener left");
  });

  it("no token → 401; another customer's token → 403; an unknown customer → 404; the owner's own → 200", async () => {
    const customerId = await newCustomer(s.url, 5);
    const other = await newCustomer(s.url, 6);
    const anonymous = await restStream(s.url, customerId, { token: null }).done;
    assert.equal(anonymous.status, 401, anonymous.body);
    const stranger = await restStream(s.url, customerId, { token: await token(other, "orders:read") }).done;
    assert.equal(stranger.status, 403, stranger.body);
    const unknown = await restStream(s.url, "00000000-0000-4000-8000-000000000000").done;
    assert.equal(unknown.status, 404, unknown.body);
    const own = restStream(s.url, customerId, { token: await token(customerId, "orders:read") });
    try {
      await until(() => listeners() === 1 && own.head() !== undefined, "the owner's stream to listen");
      assert.equal(own.head()?.status, 200);
    } finally {
      await own.stop();
    }
    await until(() => listeners() === 0, "the listener to be freed");
  });
});

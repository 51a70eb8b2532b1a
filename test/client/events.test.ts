// The generated REST SDK's event streams (api.events("streamOrderEvents", …)) against the real server: typed events
// with their ids; a connection cut mid-stream reconnects by itself with Last-Event-ID and receives the changes made
// meanwhile once each, in order; a run that resumes from an id the server no longer keeps throws a RestError (410).
import assert from "node:assert/strict";
import { createRestClient, RestError } from "twinspec-commerce-client";
import type { DurableBus } from "../../packages/twinspec/src/store/durable-bus.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { assertIncreasing, changes, newCustomer } from "../support/events.js";
import { startServer, type TestServer } from "../support/server.js";
import { until } from "../graphql/helpers.js";

describe("REST SDK (client/): event streams", function () {
  this.timeout(30_000);
  let s: TestServer;
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  beforeEach(async () => (s = await startServer()));
  afterEach(() => s.close());

  it("reconnects after a cut with Last-Event-ID: every change once, in order; breaking out frees the listener", async () => {
    const customerId = await newCustomer(s.url, 1);
    const lastEventIds: (string | null)[] = [];
    let cut = true;
    // The first connection is cut right after its first event (as a proxy timing out would).
    const cutting: typeof fetch = async (input, init) => {
      lastEventIds.push(new Headers(init?.headers).get("last-event-id"));
      const response = await fetch(input, init);
      if (!cut || !response.body) return response;
      cut = false;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          if (new TextDecoder().decode(value).includes("data:")) {
            await reader.cancel();
            controller.error(new Error("connection reset"));
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN, fetch: cutting });
    const got: { id?: string; change: string }[] = [];
    const reading = (async () => {
      for await (const event of api.events("streamOrderEvents", { path: { customerId } }, { reconnectDelay: 50 })) {
        got.push({ id: event.id, change: `${event.data.orderId} ${event.data.status}` });
        if (got.length === 21) break;
      }
    })();
    await until(() => listeners() === 1, "the stream to listen");
    const [first] = await changes(s.url, customerId, 1);
    await until(() => got.length === 1, "the first change");
    await until(() => listeners() === 1 && lastEventIds.length === 2, "the reconnection");
    const more = await changes(s.url, customerId, 20);
    await reading;
    assert.deepEqual(
      got.map((g) => g.change),
      [first, ...more],
    );
    assert.deepEqual(lastEventIds, [null, got[0].id]);
    assertIncreasing(got.map((g) => ({ id: g.id!, change: g.change })));
    await until(() => listeners() === 0, "the listener to be freed");
  });

  it("resuming after an id older than the retention throws a RestError with the 410 problem", async () => {
    const customerId = await newCustomer(s.url, 2);
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN });
    const stream = api.events("streamOrderEvents", { path: { customerId } });
    const first = stream.next();
    await until(() => listeners() === 1, "the stream to listen");
    await changes(s.url, customerId, 2);
    const { value } = await first;
    await stream.return?.(undefined);
    assert.ok((await (s.app.bus as DurableBus).prune(Date.now() + 24 * 3600_000 + 1000)) >= 2);
    await assert.rejects(
      async () => {
        for await (const _ of api.events("streamOrderEvents", { path: { customerId } }, { lastEventId: value!.id }))
          void _;
      },
      (error: unknown) => error instanceof RestError && error.status === 410,
    );
    await until(() => listeners() === 0, "no listener left");
  });
});

// orderStatusChanged over graphql-ws (WebSocket on /graphql) and graphql-sse (/graphql/stream), with each library's
// own client against the real server: every status change arrives, whichever way it happened; after complete or
// disconnect nothing more is sent and the listener is freed; pings keep idle sockets open; close() ends streams.
import assert from "node:assert/strict";
import { createClient as createSseClient } from "graphql-sse";
import { ADMIN_TOKEN } from "../support/auth.js";
import { createClient as createWsClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { call, gql, startServer, type TestServer } from "../support/server.js";
import { ITEMS, seedCustomer, sleep, until } from "./helpers.js";

const SUBSCRIBE = `subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId customerId status sentAt } }`;
type Change = { orderId: string; customerId: string; status: string; sentAt: string };

describe("GraphQL subscriptions", () => {
  let s: TestServer;
  let wsUrl: string;
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  let baseline: number;

  beforeEach(async () => {
    s = await startServer({ wsKeepAliveMs: 100 });
    wsUrl = `${s.url.replace("http", "ws")}/graphql`;
    baseline = listeners();
  });
  afterEach(() => s.close());

  const ws = (extra: Partial<Parameters<typeof createWsClient>[0]> = {}): Client =>
    createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...extra,
    });

  /** Changes the status three ways: GraphQL mutation, REST merge patch, and a checkout job (new order, PENDING). */
  async function changeEveryWay(customerId: string, orderId: string) {
    const paid = await gql(s.url, `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: PAID) { status } }`, {
      o: orderId,
    });
    assert.equal(paid.json.data.updateOrderStatus.status, "PAID");
    const shipped = await call(`${s.url}/orders/${orderId}`, {
      method: "PATCH",
      body: '{"status":"SHIPPED"}',
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(shipped.status, 200, shipped.text);
    const cart = await s.app.services.carts.create(customerId, { items: ITEMS });
    const checkout = await call(`${s.url}/carts/${cart.cartId}/checkout`, { method: "POST" });
    assert.equal(checkout.status, 202, checkout.text);
  }

  async function collect(
    iterator: AsyncIterableIterator<{ data?: unknown; errors?: unknown }>,
    n: number,
  ): Promise<Change[]> {
    const got: Change[] = [];
    for await (const result of iterator) {
      assert.equal(result.errors, undefined, JSON.stringify(result.errors));
      got.push((result.data as { orderStatusChanged: Change }).orderStatusChanged);
      if (got.length === n) break; // break → return(): the client completes the subscription
    }
    return got;
  }

  const expectEveryWay = (got: Change[], customerId: string, orderId: string) => {
    assert.deepEqual(
      got.map((c) => [c.orderId === orderId ? "order" : "new order", c.status]),
      [
        ["order", "PAID"],
        ["order", "SHIPPED"],
        ["new order", "PENDING"],
      ],
    );
    for (const c of got) {
      assert.equal(c.customerId, customerId);
      assert.ok(Date.now() - Date.parse(c.sentAt) < 10_000, c.sentAt);
    }
  };

  it("graphql-ws: every change arrives (GraphQL, REST PATCH, checkout job), other customers' do not", async () => {
    const ada = await seedCustomer(s, 1);
    const other = await seedCustomer(s, 2);
    const order = await s.app.services.orders.place(ada.customerId, { items: ITEMS });
    const otherOrder = await s.app.services.orders.place(other.customerId, { items: ITEMS });
    const client = ws();
    try {
      const received = collect(client.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } }), 3);
      await until(() => listeners() === baseline + 1, "the subscription to listen");
      await s.app.services.orders.changeStatus(otherOrder.orderId, "CANCELLED");
      await changeEveryWay(ada.customerId, order.orderId);
      expectEveryWay(await received, ada.customerId, order.orderId);
      await until(() => listeners() === baseline, "the listener to be freed after complete");
    } finally {
      await client.dispose();
    }
  });

  it("graphql-ws: after complete no message is sent; after a disconnect the listener is freed", async () => {
    const ada = await seedCustomer(s, 1);
    const order = await s.app.services.orders.place(ada.customerId, { items: ITEMS });
    const messages: { type: string }[] = [];
    const client = ws({ on: { message: (m) => void messages.push(m) } });
    const received = collect(client.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } }), 1);
    await until(() => listeners() === baseline + 1, "the subscription to listen");
    await s.app.services.orders.changeStatus(order.orderId, "PAID");
    assert.equal((await received)[0].status, "PAID");
    await until(() => listeners() === baseline, "the listener to be freed after complete");
    const nextsBefore = messages.filter((m) => m.type === "next").length;
    await s.app.services.orders.changeStatus(order.orderId, "SHIPPED");
    await sleep(150);
    assert.equal(messages.filter((m) => m.type === "next").length, nextsBefore, "no message after complete");

    // a second subscription, then the socket goes away without completing
    const again = client.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } });
    void again.next();
    await until(() => listeners() === baseline + 1, "the second subscription to listen");
    await client.dispose();
    await until(() => listeners() === baseline, "the listener to be freed after the disconnect");
  });

  it("graphql-ws: the server pings idle sockets; a peer that never answers is cut off and its listener freed", async () => {
    const ada = await seedCustomer(s, 1);
    let pings = 0;
    class CountingSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.on("ping", () => pings++);
      }
    }
    const client = ws({ webSocketImpl: CountingSocket });
    try {
      const iterator = client.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } });
      void iterator.next();
      await until(() => listeners() === baseline + 1, "the subscription to listen");
      await sleep(450);
      assert.ok(pings >= 3, `${pings} pings`);
      assert.equal(listeners(), baseline + 1, "an answering idle socket stays open");
    } finally {
      await client.dispose();
    }

    // A raw graphql-transport-ws peer that does not answer pings.
    const mute = new WebSocket(wsUrl, "graphql-transport-ws", { autoPong: false });
    await new Promise((r) => mute.once("open", r));
    mute.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${ADMIN_TOKEN}` } }));
    await new Promise((r) => mute.once("message", r));
    mute.send(
      JSON.stringify({ id: "1", type: "subscribe", payload: { query: SUBSCRIBE, variables: { c: ada.customerId } } }),
    );
    await until(() => listeners() === baseline + 1, "the mute subscription to listen");
    await until(() => listeners() === baseline, "the mute peer to be cut off", 2000);
    assert.notEqual(mute.readyState, WebSocket.OPEN);
  });

  it("graphql-ws: subscribing for an unknown customer → NOT_FOUND; limits apply over WebSocket too", async () => {
    const client = ws();
    try {
      // the subscription could not start: one result with the error, then complete
      const results = [];
      for await (const result of client.iterate({ query: SUBSCRIBE, variables: { c: "cus_nobody" } }))
        results.push(result);
      assert.equal(results.length, 1);
      assert.equal(
        (results[0].errors as unknown as { extensions: { code: string } }[])[0].extensions.code,
        "NOT_FOUND",
      );
      // a document that does not validate: the subscription is refused with an error message
      await assert.rejects(
        collect(client.iterate({ query: `subscription { orderStatusChanged(customerId: "x") { nope } }` }), 1),
        (errors: { extensions: { code: string } }[]) => {
          assert.equal(errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
          return true;
        },
      );
      assert.equal(listeners(), baseline);
    } finally {
      await client.dispose();
    }
  });

  it("graphql-sse: every change arrives on /graphql/stream; the listener is freed when the client stops", async () => {
    const ada = await seedCustomer(s, 1);
    const order = await s.app.services.orders.place(ada.customerId, { items: ITEMS });
    const client = createSseClient({
      url: `${s.url}/graphql/stream`,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    try {
      const received = collect(client.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } }), 3);
      await until(() => listeners() === baseline + 1, "the SSE subscription to listen");
      await changeEveryWay(ada.customerId, order.orderId);
      expectEveryWay(await received, ada.customerId, order.orderId);
      await until(() => listeners() === baseline, "the listener to be freed after the client stopped");
    } finally {
      client.dispose();
    }
  });

  it("graphql-sse: errors arrive as a result with codes", async () => {
    const client = createSseClient({
      url: `${s.url}/graphql/stream`,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    try {
      const [result] = await (async () => {
        const out = [];
        for await (const r of client.iterate({ query: SUBSCRIBE, variables: { c: "cus_nobody" } })) out.push(r);
        return out;
      })();
      assert.equal((result.errors as unknown as { extensions: { code: string } }[])[0].extensions.code, "NOT_FOUND");
    } finally {
      client.dispose();
    }
  });

  it("graphql-sse: a document that does not validate → 400 with its coded errors (not graphql-sse's own wording)", async () => {
    const res = await call(`${s.url}/graphql/stream`, {
      method: "POST",
      json: { query: "subscription { nope }" },
      headers: { accept: "text/event-stream" },
    });
    assert.equal(res.status, 400);
    assert.equal(res.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
  });

  it("App.close() ends WebSocket and SSE subscriptions and frees their listeners", async () => {
    const ada = await seedCustomer(s, 1);
    const wsClient = ws();
    const sseClient = createSseClient({
      url: `${s.url}/graphql/stream`,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const drain = async (it: AsyncIterableIterator<unknown>) => {
      try {
        for await (const _ of it) void _;
      } catch {
        // a closed socket may end the iteration with an error; it ends either way
      }
    };
    const ended = Promise.all([
      drain(wsClient.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } })),
      drain(sseClient.iterate({ query: SUBSCRIBE, variables: { c: ada.customerId } })),
    ]);
    await until(() => listeners() === baseline + 2, "both subscriptions to listen");
    await s.app.close();
    await ended;
    assert.equal(listeners(), 0);
    await wsClient.dispose();
    sseClient.dispose();
  });
});

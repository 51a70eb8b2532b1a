// Subscriptions across instances (PostgreSQL LISTEN/NOTIFY): a subscriber connected to instance A, over
// graphql-ws and over SSE, receives the order status changes made through instance B — by REST PATCH, by
// GraphQL mutation, and by a checkout job — in order, and nothing of other customers.
import assert from "node:assert/strict";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN } from "../support/auth.js";
import { mergePatch } from "../support/fixtures.js";
import { ada, call, gql } from "../support/server.js";
import { onPostgres, startInstances, type Instances } from "../support/instances.js";
import { until } from "../support/wait.js";

const SUBSCRIBE = `subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId customerId status } }`;
const ITEMS = [{ sku: "a", quantity: 1, unitPrice: 2 }];
type Change = { orderId: string; customerId: string; status: string };

(onPostgres ? describe : describe.skip)("subscriptions across two instances", function () {
  this.timeout(60_000);
  let group: Instances;
  let a: string;
  let b: string;
  before(async () => {
    group = await startInstances(2, { JOB_POLL_MS: "50", DATABASE_POOL_MAX: "4" });
    [a, b] = group.servers.map((s) => s.url);
  });
  after(() => group.stop());

  /** Collects what a subscription yields into `got`, until it ends. */
  function drain(iterator: AsyncIterableIterator<{ data?: unknown; errors?: unknown }>, got: Change[]) {
    return (async () => {
      for await (const result of iterator) {
        assert.equal(result.errors, undefined, JSON.stringify(result.errors));
        got.push((result.data as { orderStatusChanged: Change }).orderStatusChanged);
      }
    })();
  }

  /** The subscription on A is live once it has seen a probe: an order of the customer cancelled through B. */
  async function probe(customerId: string, got: Change[]) {
    const probes = new Set<string>();
    const deadline = Date.now() + 10_000;
    while (!got.some((c) => probes.has(c.orderId))) {
      if (Date.now() > deadline) throw new Error("the subscription on A never heard B");
      const order = await call(`${b}/customers/${customerId}/orders`, { method: "POST", json: { items: ITEMS } });
      probes.add(order.json.orderId);
      await call(`${b}/orders/${order.json.orderId}`, mergePatch({ status: "CANCELLED" }));
      await new Promise((r) => setTimeout(r, 100));
    }
    got.splice(0);
  }

  async function changeThroughB(customerId: string, orderId: string) {
    const paid = await call(`${b}/orders/${orderId}`, mergePatch({ status: "PAID" }));
    assert.equal(paid.status, 200, paid.text);
    const shipped = await gql(b, `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: SHIPPED) { status } }`, {
      o: orderId,
    });
    assert.equal(shipped.json.data?.updateOrderStatus.status, "SHIPPED", shipped.text);
    const cart = await call(`${b}/customers/${customerId}/carts`, { method: "POST", json: { items: ITEMS } });
    const checkout = await call(`${b}/carts/${cart.json.cartId}/checkout`, { method: "POST" });
    assert.equal(checkout.status, 202, checkout.text);
  }

  function expectChanges(got: Change[], customerId: string, orderId: string) {
    assert.deepEqual(
      got.map((c) => [c.customerId === customerId, c.orderId === orderId ? "order" : "new order", c.status]),
      [
        [true, "order", "PAID"],
        [true, "order", "SHIPPED"],
        [true, "new order", "PENDING"],
      ],
    );
  }

  async function customerWithOrder(n: number) {
    const customer = await call(`${b}/customers`, {
      method: "POST",
      json: { ...ada, email: `events${n}@example.com` },
    });
    const order = await call(`${b}/customers/${customer.json.customerId}/orders`, {
      method: "POST",
      json: { items: ITEMS },
    });
    return { customerId: customer.json.customerId as string, orderId: order.json.orderId as string };
  }

  it("/readyz on each instance reports PostgreSQL, its pool (DATABASE_POOL_MAX) and a listening event bus", async () => {
    for (const url of [a, b]) {
      const res = await call(`${url}/readyz`, { anonymous: true });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, "ready");
      assert.equal(res.json.database, "postgres");
      assert.equal(res.json.events, "listening");
      assert.equal(res.json.pool.max, 4);
    }
  });

  it("graphql-ws on A hears REST, GraphQL and job changes made through B", async () => {
    const { customerId, orderId } = await customerWithOrder(1);
    const other = await customerWithOrder(2);
    const client = createWsClient({
      url: `${a.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const got: Change[] = [];
    const iterator = client.iterate({ query: SUBSCRIBE, variables: { c: customerId } });
    const done = drain(iterator, got);
    try {
      await probe(customerId, got);
      await call(`${b}/orders/${other.orderId}`, mergePatch({ status: "CANCELLED" }));
      await changeThroughB(customerId, orderId);
      await until(() => got.length >= 3, "three changes on A");
      await new Promise((r) => setTimeout(r, 200));
      expectChanges(got, customerId, orderId);
    } finally {
      await iterator.return?.();
      await client.dispose();
      await done;
    }
  });

  it("SSE (/graphql/stream) on A hears the same", async () => {
    const { customerId, orderId } = await customerWithOrder(3);
    const client = createSseClient({
      url: `${a}/graphql/stream`,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const got: Change[] = [];
    const iterator = client.iterate({ query: SUBSCRIBE, variables: { c: customerId } });
    const done = drain(iterator, got);
    try {
      await probe(customerId, got);
      await changeThroughB(customerId, orderId);
      await until(() => got.length >= 3, "three changes on A");
      await new Promise((r) => setTimeout(r, 200));
      expectChanges(got, customerId, orderId);
    } finally {
      await iterator.return?.();
      client.dispose();
      await done;
    }
  });
});

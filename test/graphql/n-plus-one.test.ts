// Relationships are batch-loaded: a page of customers with their orders and carts costs 3 queries, whatever its
// size, measured from outside through db_queries_total on /metrics.
import assert from "node:assert/strict";
import { gql, startServer, type TestServer } from "../support/server.js";
import { metric, seedCustomer } from "./helpers.js";

describe("GraphQL relationships without N+1", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ quiet: true });
    for (let n = 0; n < 60; n++) await seedCustomer(s, n, { orders: 2, carts: 1 });
  });
  after(() => s.close());

  const page = (first: number) =>
    `{ customers(first: ${first}) { customerId orders { orderId status total customer { customerId } } carts { cartId items { sku } } } }`;

  for (const first of [5, 50]) {
    it(`customers(first: ${first}) { orders { customer } carts } costs at most 3 database queries`, async () => {
      const before = await metric(s, "db_queries_total");
      const res = await gql(s.url, page(first));
      const after = await metric(s, "db_queries_total");
      assert.equal(res.json.errors, undefined, res.text);
      assert.equal(res.json.data.customers.length, first);
      for (const c of res.json.data.customers) {
        assert.equal(c.orders.length, 2);
        assert.equal(c.carts.length, 1);
        assert.ok(c.orders.every((o: { customer: { customerId: string } }) => o.customer.customerId === c.customerId));
      }
      assert.ok(after - before <= 3, `${after - before} queries`);
      assert.ok(after - before >= 1, "the counter moves");
    });
  }

  it("Order.customer and Cart.customer are batched too (order(…) and cart(…) in one request)", async () => {
    const [a, b] = (await gql(s.url, `{ customers(first: 2) { orders { orderId } carts { cartId } } }`)).json.data
      .customers;
    const before = await metric(s, "db_queries_total");
    const res = await gql(
      s.url,
      `query($o1: ID!, $o2: ID!, $c1: ID!) { o1: order(orderId: $o1) { customer { firstName } } o2: order(orderId: $o2) { customer { firstName } } c1: cart(cartId: $c1) { customer { firstName } } }`,
      { o1: a.orders[0].orderId, o2: b.orders[0].orderId, c1: a.carts[0].cartId },
    );
    const after = await metric(s, "db_queries_total");
    assert.deepEqual(res.json.data, {
      o1: { customer: { firstName: "First0" } },
      o2: { customer: { firstName: "First1" } },
      c1: { customer: { firstName: "First0" } },
    });
    // Three root lookups, then the customer loads batched: one query when the roots answer in the same tick
    // (SQLite's driver), at most two when their answers arrive apart (PostgreSQL's pool) — never one per parent (6).
    assert.ok(
      after - before >= 4 && after - before <= (s.store.dialect === "sqlite" ? 4 : 5),
      `${after - before} queries`,
    );
  });
});

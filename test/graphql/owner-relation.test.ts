// Order.customer and Cart.customer: relations to one instance, paired with GET /customers/{customerId} (its x-graphql
// lists them after Query.customer), resolved by generate over a batch loader. A live customer is read; once it is
// deleted, its order answers GONE before the field is reached (a missing one would be NOT_FOUND at the field, as the
// hand-written loader answered: packages/twinspec/test/graphql/lookups.test.ts).
import assert from "node:assert/strict";
import { gql, startServer, type TestServer } from "../support/server.js";
import { token } from "../support/auth.js";
import { seedCustomer } from "./helpers.js";

describe("GraphQL relations to one customer (Order.customer, Cart.customer)", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ jobs: { pollMs: 3_600_000 } });
  });
  after(() => s.close());

  it("reads the live customer; a deleted one's order is GONE", async () => {
    const customer = await seedCustomer(s, 1, { orders: 1, carts: 1 });
    const [{ orderId }] = [
      ...((await s.app.services.orders.listByParents([customer.customerId])).get(customer.customerId) ?? []),
    ];
    const [{ cartId }] = [
      ...((await s.app.services.carts.listByParents([customer.customerId])).get(customer.customerId) ?? []),
    ];
    const query = `query($o: ID!, $c: ID!) { order(orderId: $o) { customer { customerId firstName } } cart(cartId: $c) { customer { customerId } } }`;
    const live = await gql(s.url, query, { o: orderId, c: cartId });
    assert.equal(live.json.errors, undefined, live.text);
    assert.deepEqual(live.json.data, {
      order: { customer: { customerId: customer.customerId, firstName: "First1" } },
      cart: { customer: { customerId: customer.customerId } },
    });

    await s.app.services.customers.delete(customer.customerId);
    const orphan = await gql(s.url, `query($o: ID!) { order(orderId: $o) { orderId customer { customerId } } }`, {
      o: orderId,
    });
    assert.equal(orphan.json.data.order, null);
    assert.deepEqual(
      orphan.json.errors.map((e: { extensions: { code: string }; path: string[] }) => [
        e.extensions.code,
        e.path.join("."),
      ]),
      [["GONE", "order"]],
    );
  });

  it("keeps @auth on the generated resolvers: without customers:read, Order.customer is FORBIDDEN", async () => {
    const customer = await seedCustomer(s, 2, { orders: 1 });
    const [{ orderId }] = [
      ...((await s.app.services.orders.listByParents([customer.customerId])).get(customer.customerId) ?? []),
    ];
    const res = await gql(
      s.url,
      `query($o: ID!) { order(orderId: $o) { customer { firstName } } }`,
      { o: orderId },
      { token: await token(customer.customerId, "orders:read") },
    );
    assert.equal(res.json.data.order, null);
    assert.deepEqual(
      res.json.errors.map((e: { extensions: { code: string }; path: string[] }) => [
        e.extensions.code,
        e.path.join("."),
      ]),
      [["FORBIDDEN", "order.customer"]],
    );
  });
});

// Compiled execution (graphql-jit) answers exactly as graphql-js does: same data, same errors, same order.
import assert from "node:assert/strict";
import { execute, getIntrospectionQuery, parse } from "graphql";
import { createExecute } from "../../src/graphql/execute.js";
import { startServer, type TestServer } from "../support/server.js";
import { seedCustomer } from "./helpers.js";

describe("graphql-jit gives the results of graphql-js", () => {
  let s: TestServer;
  let ids: { customer: string; order: string; cart: string };
  before(async () => {
    s = await startServer({ jobs: { pollMs: 3_600_000 } });
    for (let n = 0; n < 5; n++) await seedCustomer(s, n, { orders: 2, carts: 1 });
    const c = (await s.app.services.customers.list({ limit: 1 })).items[0];
    const orders = await s.app.services.orders.forCustomers([c.customerId]);
    const carts = await s.app.services.carts.forCustomers([c.customerId]);
    ids = { customer: c.customerId, order: orders.get(c.customerId)![0].orderId, cart: carts.get(c.customerId)![0].cartId };
    await s.app.services.orders.changeStatus(ids.order, "PAID");
  });
  after(() => s.close());

  const cases: [string, string, (ids: Record<string, string>) => Record<string, unknown>][] = [
    ["Q1", `query($id: ID!) { customer(customerId: $id) { customerId firstName lastName } }`, (i) => ({ id: i.customer })],
    ["Q2", `{ customers(first: 50) { customerId firstName orders { orderId status } } }`, () => ({})],
    [
      "fragments, aliases, nested relationships, scalars",
      `query($id: ID!, $o: ID!) { c: customer(customerId: $id) { ...C } o: order(orderId: $o) { total createdAt items { sku quantity unitPrice } customer { ...C } } __typename }
       fragment C on Customer { customerId email updatedAt carts { cartId items { sku } customer { lastName } } orders { status } }`,
      (i) => ({ id: i.customer, o: i.order }),
    ],
    ["partial results with coded errors", `query($c: ID!) { a: cart(cartId: $c) { cartId } b: cart(cartId: "crt_none") { cartId } c: order(orderId: "ord_none") { orderId } }`, (i) => ({ c: i.cart })],
    ["bad argument", `{ customers(after: "cus_none") { customerId } }`, () => ({})],
    ["variable coercion error", `query($id: ID!) { customer(customerId: $id) { customerId } }`, () => ({ id: { not: "an id" } })],
    ["failing mutation", `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: PENDING) { status } }`, (i) => ({ o: i.order })],
    ["introspection", getIntrospectionQuery(), () => ({})],
  ];

  for (const [name, query, variables] of cases) {
    it(name, async () => {
      const { schema, context } = runtime(s);
      const document = parse(query);
      const args = (requestId: string) => ({ schema, document, variableValues: variables(ids), contextValue: context({ requestId, principal: ADMIN }) });
      const viaJs = await execute(args("r1"));
      const viaJit = await createExecute(schema)(args("r1"));
      // Sibling fields resolve concurrently (on PostgreSQL their errors arrive in completion order): compare errors as a set.
      const normal = (r: unknown) => {
        const plain = JSON.parse(JSON.stringify(r)) as { errors?: unknown[] };
        plain.errors?.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        return plain;
      };
      assert.deepEqual(normal(viaJit), normal(viaJs));
      if (name.startsWith("Q")) assert.equal(viaJs.errors, undefined);
    });
  }
});

/** An admin caller, as the auth layer would hand it over. */
const ADMIN = { subject: "test-admin", scopes: new Set(["admin"]), expiresAt: Date.now() / 1000 + 3600 };

/** The app's GraphQL runtime, as the transports use it. */
const runtime = (s: TestServer) => s.app.graphql;

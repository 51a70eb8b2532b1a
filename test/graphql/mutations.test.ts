// Every write of the domain as a mutation: the selected fields of the result, or the failure in `errors` with a code.
import assert from "node:assert/strict";
import { ada, gql, startServer, type TestServer } from "../support/server.js";
import { ITEMS, until } from "./helpers.js";

describe("GraphQL mutations", () => {
  let s: TestServer;
  let customerId: string;
  before(async () => {
    s = await startServer();
    const res = await gql(s.url, `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`, {
      i: ada,
    });
    customerId = res.json.data.createCustomer.customerId;
  });
  after(() => s.close());

  const code = (res: { json: { errors?: { extensions: { code: string } }[] } }) =>
    res.json.errors?.[0]?.extensions.code;

  it("createCustomer twice with one input makes two customers; deleteCustomer of nobody → NOT_FOUND", async () => {
    const made = await Promise.all(
      [1, 2].map(() =>
        gql(s.url, `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`, { i: ada }),
      ),
    );
    assert.notEqual(made[0].json.data.createCustomer.customerId, made[1].json.data.createCustomer.customerId);
    const del = await gql(s.url, `mutation { deleteCustomer(customerId: "cus_nobody") }`);
    assert.deepEqual(del.json.data, { deleteCustomer: null });
    assert.equal(code(del), "NOT_FOUND");
    const upd = await gql(
      s.url,
      `mutation { updateCustomer(customerId: "cus_nobody", input: { firstName: "X" }) { firstName } }`,
    );
    assert.equal(code(upd), "NOT_FOUND");
  });

  it("placeOrder(customerId, input) returns the selected fields, total computed by the domain", async () => {
    const res = await gql(
      s.url,
      `mutation($c: ID!, $i: PlaceOrderInput!) { placeOrder(customerId: $c, input: $i) { status total items { sku quantity unitPrice } customer { customerId } } }`,
      {
        c: customerId,
        i: { items: [...ITEMS, { sku: "PEN", quantity: 3, unitPrice: 0.1 }] },
      },
    );
    assert.equal(res.json.errors, undefined, res.text);
    assert.deepEqual(res.json.data.placeOrder, {
      status: "PENDING",
      total: 25.3,
      items: [...ITEMS, { sku: "PEN", quantity: 3, unitPrice: 0.1 }],
      customer: { customerId },
    });
  });

  it("placeOrder with bad items → BAD_USER_INPUT naming the argument and each field; for nobody → NOT_FOUND", async () => {
    const bad = await gql(
      s.url,
      `mutation($c: ID!, $i: PlaceOrderInput!) { placeOrder(customerId: $c, input: $i) { orderId } }`,
      {
        c: customerId,
        i: {
          items: [
            { sku: "OK", quantity: 0, unitPrice: 1 },
            { sku: "bad sku!", quantity: 1, unitPrice: -1 },
          ],
        },
      },
    );
    assert.deepEqual(bad.json.data, { placeOrder: null });
    const [error] = bad.json.errors;
    assert.equal(error.extensions.code, "BAD_USER_INPUT");
    assert.equal(error.extensions.argument, "input");
    assert.deepEqual(
      error.extensions.invalid.map((e: { pointer: string; path: unknown[] }) => [e.pointer, e.path]),
      [
        ["/items/0/quantity", ["input", "items", 0, "quantity"]],
        ["/items/1/sku", ["input", "items", 1, "sku"]],
        ["/items/1/unitPrice", ["input", "items", 1, "unitPrice"]],
      ],
    );
    const empty = await gql(
      s.url,
      `mutation($c: ID!) { placeOrder(customerId: $c, input: { items: [] }) { orderId } }`,
      { c: customerId },
    );
    assert.equal(empty.json.errors[0].extensions.invalid[0].pointer, "/items");
    const nobody = await gql(
      s.url,
      `mutation($i: PlaceOrderInput!) { placeOrder(customerId: "cus_nobody", input: $i) { orderId } }`,
      { i: { items: ITEMS } },
    );
    assert.equal(code(nobody), "NOT_FOUND");
  });

  it("updateOrderStatus follows the lifecycle; a forbidden move → CONFLICT with the allowed ones", async () => {
    const placed = await gql(
      s.url,
      `mutation($c: ID!, $i: PlaceOrderInput!) { placeOrder(customerId: $c, input: $i) { orderId } }`,
      { c: customerId, i: { items: ITEMS } },
    );
    const orderId = placed.json.data.placeOrder.orderId;
    const paid = await gql(
      s.url,
      `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: PAID) { orderId status } }`,
      { o: orderId },
    );
    assert.deepEqual(paid.json.data.updateOrderStatus, { orderId, status: "PAID" });
    const back = await gql(s.url, `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: PENDING) { status } }`, {
      o: orderId,
    });
    assert.equal(code(back), "CONFLICT");
    assert.deepEqual(back.json.errors[0].extensions.allowed, ["SHIPPED", "CANCELLED"]);
    const unknown = await gql(s.url, `mutation { updateOrderStatus(orderId: "ord_nobody", status: PAID) { status } }`);
    assert.equal(code(unknown), "NOT_FOUND");
    const badEnum = await gql(s.url, `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: LOST) { status } }`, {
      o: orderId,
    });
    assert.equal(code(badEnum), "GRAPHQL_VALIDATION_FAILED");
  });

  it("createCart, replaceCartItems, deleteCart; a deleted cart answers GONE", async () => {
    const created = await gql(
      s.url,
      `mutation($c: ID!) { createCart(customerId: $c, input: { items: [] }) { cartId items { sku } customer { firstName } } }`,
      { c: customerId },
    );
    const { cartId } = created.json.data.createCart;
    assert.deepEqual(created.json.data.createCart, { cartId, items: [], customer: { firstName: "Ada" } });
    const replaced = await gql(
      s.url,
      `mutation($id: ID!, $i: CartInput!) { replaceCartItems(cartId: $id, input: $i) { items { sku quantity } } }`,
      { id: cartId, i: { items: ITEMS } },
    );
    assert.deepEqual(replaced.json.data.replaceCartItems, { items: [{ sku: "BOOK-1", quantity: 2 }] });
    const invalid = await gql(
      s.url,
      `mutation($id: ID!) { replaceCartItems(cartId: $id, input: { items: [{ sku: "A", quantity: 99999, unitPrice: 1 }] }) { cartId } }`,
      { id: cartId },
    );
    assert.equal(invalid.json.errors[0].extensions.argument, "input");
    assert.deepEqual(invalid.json.errors[0].extensions.invalid[0].path, ["input", "items", 0, "quantity"]);
    const deleted = await gql(s.url, `mutation($id: ID!) { deleteCart(cartId: $id) }`, { id: cartId });
    assert.deepEqual(deleted.json.data, { deleteCart: cartId });
    const again = await gql(s.url, `mutation($id: ID!) { deleteCart(cartId: $id) }`, { id: cartId });
    assert.equal(code(again), "GONE");
    const cart = await gql(s.url, `query($id: ID!) { cart(cartId: $id) { cartId } }`, { id: cartId });
    assert.equal(code(cart), "GONE");
    const noCustomer = await gql(
      s.url,
      `mutation { createCart(customerId: "cus_nobody", input: { items: [] }) { cartId } }`,
    );
    assert.equal(code(noCustomer), "NOT_FOUND");
  });

  it("checkoutCart returns a Job; the job turns the cart into an order; a second checkout → CONFLICT", async () => {
    const created = await gql(
      s.url,
      `mutation($c: ID!, $i: CartInput!) { createCart(customerId: $c, input: $i) { cartId } }`,
      { c: customerId, i: { items: ITEMS } },
    );
    const { cartId } = created.json.data.createCart;
    const accepted = await gql(
      s.url,
      `mutation($id: ID!) { checkoutCart(cartId: $id) { jobId status result { orderId } } }`,
      { id: cartId },
    );
    const job = accepted.json.data.checkoutCart;
    assert.equal(job.status, "PENDING");
    assert.equal(job.result, null);
    let done:
      | { status: string; result: { orderId: string; order: { status: string; total: number; customerId: string } } }
      | undefined;
    await until(async () => {
      done = (
        await gql(
          s.url,
          `query($id: ID!) { job(jobId: $id) { status result { orderId order { status total customerId } } } }`,
          { id: job.jobId },
        )
      ).json.data.job;
      return done!.status === "SUCCEEDED";
    }, "the checkout job");
    assert.deepEqual(done!.result.order, { status: "PENDING", total: 25, customerId });
    const twice = await gql(s.url, `mutation($id: ID!) { checkoutCart(cartId: $id) { jobId } }`, { id: cartId });
    assert.equal(code(twice), "CONFLICT");
    const emptyCart = await gql(
      s.url,
      `mutation($c: ID!) { createCart(customerId: $c, input: { items: [] }) { cartId } }`,
      { c: customerId },
    );
    const empty = await gql(s.url, `mutation($id: ID!) { checkoutCart(cartId: $id) { jobId } }`, {
      id: emptyCart.json.data.createCart.cartId,
    });
    assert.equal(code(empty), "CONFLICT");
    const missingJob = await gql(s.url, `{ job(jobId: "job_nobody") { status } }`);
    assert.equal(code(missingJob), "NOT_FOUND");
  });
});

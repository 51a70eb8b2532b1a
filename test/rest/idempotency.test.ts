// Idempotency-Key on the commerce service's own POSTs (the mechanism's rules are the twinspec package's tests): a
// repeated order, and a repeated checkout whose 202 is replayed with the same job, not refused as already checked out.
import assert from "node:assert/strict";
import { item, newCart, newCustomer } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("Idempotency-Key on the commerce POSTs", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const post = (path: string, json: unknown, key: string) =>
    call(`${s.url}${path}`, { method: "POST", json, headers: { "Idempotency-Key": key } });

  it("works on orders and on checkout (one job, its 202 and Location replayed); without a key POST stays non-idempotent", async () => {
    const { customerId } = await newCustomer(s.url);
    const o1 = await post(`/customers/${customerId}/orders`, { items: [item()] }, "order-key");
    const o2 = await post(`/customers/${customerId}/orders`, { items: [item()] }, "order-key");
    assert.equal(o2.json.orderId, o1.json.orderId);
    const { cartId } = await newCart(s.url, customerId);
    const c1 = await post(`/carts/${cartId}/checkout`, undefined, "co-key");
    const c2 = await post(`/carts/${cartId}/checkout`, undefined, "co-key");
    assert.equal(c1.status, 202);
    assert.equal(c2.status, 202, "replayed, not 409 'already checked out'");
    assert.equal(c2.headers.get("location"), c1.headers.get("location"));
    assert.equal(c2.headers.get("idempotent-replayed"), "true");
    const n1 = await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [item()] } });
    const n2 = await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [item()] } });
    assert.notEqual(n1.json.orderId, n2.json.orderId);
  });
});

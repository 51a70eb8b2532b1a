// Merging customers: orders and carts move to the survivor; the old URLs answer 301 for every method.
import assert from "node:assert/strict";
import { mergePatch, newCart, newCustomer, newOrder } from "../support/fixtures.js";
import { ada, call, startServer, type TestServer } from "../support/server.js";

describe("REST merge and 301", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("moves orders and carts, then the old customer answers 301 + Location for every method", async () => {
    const from = await newCustomer(s.url);
    const into = await newCustomer(s.url);
    const order = await newOrder(s.url, from.customerId);
    const cart = await newCart(s.url, from.customerId);
    const merged = await call(`${s.url}/customers/${from.customerId}/merge`, {
      method: "POST",
      json: { into: into.customerId },
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.json.customerId, into.customerId);
    assert.equal((await call(`${s.url}/orders/${order.orderId}`)).json.customerId, into.customerId);
    assert.equal((await call(`${s.url}/carts/${cart.cartId}`)).json.customerId, into.customerId);

    const old = `${s.url}/customers/${from.customerId}`;
    const calls: [string, RequestInit & { json?: unknown }, string][] = [
      ["GET", {}, `/customers/${into.customerId}`],
      ["PUT", { method: "PUT", json: ada }, `/customers/${into.customerId}`],
      ["PATCH", mergePatch({ lastName: "X" }), `/customers/${into.customerId}`],
      ["DELETE", { method: "DELETE" }, `/customers/${into.customerId}`],
      ["GET orders", { url: "/orders" } as never, `/customers/${into.customerId}/orders`],
      [
        "POST orders",
        { method: "POST", json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] }, url: "/orders" } as never,
        `/customers/${into.customerId}/orders`,
      ],
      ["GET carts", { url: "/carts" } as never, `/customers/${into.customerId}/carts`],
      [
        "POST carts",
        { method: "POST", json: { items: [] }, url: "/carts" } as never,
        `/customers/${into.customerId}/carts`,
      ],
      [
        "GET order-events",
        { headers: { accept: "text/event-stream" }, url: "/order-events" } as never,
        `/customers/${into.customerId}/order-events`,
      ],
      [
        "POST merge",
        { method: "POST", json: { into: into.customerId }, url: "/merge" } as never,
        `/customers/${into.customerId}/merge`,
      ],
    ];
    for (const [name, init, location] of calls) {
      const suffix = (init as { url?: string }).url ?? "";
      const res = await call(`${old}${suffix}`, { ...init, redirect: "manual" });
      assert.equal(res.status, 301, `${name}: ${res.text}`);
      assert.equal(res.headers.get("location"), location, name);
    }
    assert.equal((await call(`${s.url}/customers/${into.customerId}/orders`)).json.items.length, 1);
  });

  it("refuses merging into itself, into a missing or deleted customer (409), or with a bad id (400)", async () => {
    const a = await newCustomer(s.url);
    const b = await newCustomer(s.url);
    await call(`${s.url}/customers/${b.customerId}`, { method: "DELETE" });
    const merge = (into: string) =>
      call(`${s.url}/customers/${a.customerId}/merge`, { method: "POST", json: { into } });
    assert.equal((await merge(a.customerId)).status, 409);
    assert.equal((await merge("nobody")).status, 409);
    assert.equal((await merge(b.customerId)).status, 409);
    assert.equal((await merge("bad id!")).status, 400);
    assert.equal(
      (await call(`${s.url}/customers/nobody/merge`, { method: "POST", json: { into: a.customerId } })).status,
      404,
    );
    assert.equal((await call(`${s.url}/customers/${a.customerId}`)).status, 200);
  });
});

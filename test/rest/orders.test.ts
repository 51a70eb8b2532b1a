// Orders over REST: placing (server-computed total), reading, listing, and the status lifecycle.
import assert from "node:assert/strict";
import { item, mergePatch, newCustomer, newOrder } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("REST orders", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("POST places an order: 201 + Location, PENDING, total computed by the server", async () => {
    const { customerId } = await newCustomer(s.url);
    const res = await call(`${s.url}/customers/${customerId}/orders`, {
      method: "POST",
      json: { items: [item("a", 3, 0.1), item("b", 1, 19.99)] },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("location"), `/orders/${res.json.orderId}`);
    assert.equal(res.json.status, "PENDING");
    assert.equal(res.json.total, 20.29);
    assert.equal(res.json.customerId, customerId);
    const got = await call(`${s.url}/orders/${res.json.orderId}`);
    assert.deepEqual(got.json, res.json);
    assert.equal(got.headers.get("etag"), '"v1"');
  });

  it("a client-sent total or status is refused (read-only fields), and an empty order too", async () => {
    const { customerId } = await newCustomer(s.url);
    const res = await call(`${s.url}/customers/${customerId}/orders`, {
      method: "POST",
      json: { items: [item()], total: 0 },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.json.errors.map((e: { pointer: string }) => e.pointer),
      ["/total"],
    );
    const empty = await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [] } });
    assert.equal(empty.status, 400);
    const bad = await call(`${s.url}/customers/${customerId}/orders`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 0, unitPrice: -1 }] },
    });
    assert.deepEqual(bad.json.errors.map((e: { pointer: string }) => e.pointer).sort(), [
      "/items/0/quantity",
      "/items/0/unitPrice",
    ]);
  });

  it("ordering for a customer that does not exist → 404; deleted → 410", async () => {
    assert.equal(
      (await call(`${s.url}/customers/nobody/orders`, { method: "POST", json: { items: [item()] } })).status,
      404,
    );
    const { customerId } = await newCustomer(s.url);
    await call(`${s.url}/customers/${customerId}`, { method: "DELETE" });
    assert.equal(
      (await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [item()] } })).status,
      410,
    );
  });

  it("status moves PENDING→PAID→SHIPPED→DELIVERED; anything else → 409 naming the allowed moves", async () => {
    const { customerId } = await newCustomer(s.url);
    const { orderId } = await newOrder(s.url, customerId);
    const url = `${s.url}/orders/${orderId}`;
    const skip = await call(url, mergePatch({ status: "SHIPPED" }));
    assert.equal(skip.status, 409);
    assert.deepEqual(skip.json.allowed, ["PAID", "CANCELLED"]);
    for (const status of ["PAID", "SHIPPED", "DELIVERED"]) {
      const res = await call(url, mergePatch({ status }));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, status);
    }
    const back = await call(url, mergePatch({ status: "CANCELLED" }));
    assert.equal(back.status, 409);
    assert.deepEqual(back.json.allowed, []);
    assert.match(back.json.detail, /final status/);
  });

  it("CANCELLED from PENDING and from PAID, not after; Prefer: return=minimal → 204; unknown status → 400", async () => {
    const { customerId } = await newCustomer(s.url);
    const a = await newOrder(s.url, customerId);
    assert.equal((await call(`${s.url}/orders/${a.orderId}`, mergePatch({ status: "CANCELLED" }))).status, 200);
    const b = await newOrder(s.url, customerId);
    await call(`${s.url}/orders/${b.orderId}`, mergePatch({ status: "PAID" }));
    const minimal = await call(
      `${s.url}/orders/${b.orderId}`,
      mergePatch({ status: "CANCELLED" }, { Prefer: "return=minimal" }),
    );
    assert.equal(minimal.status, 204);
    assert.equal(minimal.headers.get("etag"), '"v3"');
    const unknown = await call(`${s.url}/orders/${b.orderId}`, mergePatch({ status: "LOST" }));
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.errors[0].message, /PENDING/);
  });

  it("If-Match guards status changes (412)", async () => {
    const { customerId } = await newCustomer(s.url);
    const { orderId } = await newOrder(s.url, customerId);
    const res = await call(`${s.url}/orders/${orderId}`, mergePatch({ status: "PAID" }, { "If-Match": '"v7"' }));
    assert.equal(res.status, 412);
    assert.equal((await call(`${s.url}/orders/${orderId}`)).json.status, "PENDING");
  });

  it("lists a customer's orders with pagination; a deleted customer's orders answer 410", async () => {
    const { customerId } = await newCustomer(s.url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await newOrder(s.url, customerId)).orderId);
    const page1 = await call(`${s.url}/customers/${customerId}/orders?limit=2`);
    assert.deepEqual(
      page1.json.items.map((o: { orderId: string }) => o.orderId),
      ids.slice(0, 2),
    );
    assert.match(
      page1.headers.get("link")!,
      new RegExp(`^</customers/${customerId}/orders\\?limit=2&cursor=[^>]+>; rel="next"$`),
    );
    const page2 = await call(`${s.url}/customers/${customerId}/orders?limit=2&cursor=${page1.json.nextCursor}`);
    assert.deepEqual(
      page2.json.items.map((o: { orderId: string }) => o.orderId),
      ids.slice(2),
    );
    assert.equal(page2.headers.get("link"), null);
    await call(`${s.url}/customers/${customerId}`, { method: "DELETE" });
    assert.equal((await call(`${s.url}/orders/${ids[0]}`)).status, 410);
    assert.equal((await call(`${s.url}/orders/${ids[0]}`, mergePatch({ status: "PAID" }))).status, 410);
    assert.equal((await call(`${s.url}/customers/${customerId}/orders`)).status, 410);
    assert.equal((await call(`${s.url}/orders/ord_none`)).status, 404);
  });
});

// Carts over REST, and checkout: 202 + Location of a status monitor, a durable job, exactly one order.
import assert from "node:assert/strict";
import { item, newCart, newCustomer, settle } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("REST carts and checkout", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("POST creates a cart (201 + Location); PUT replaces its items (same items twice = same ETag); DELETE → 204 then 410", async () => {
    const { customerId } = await newCustomer(s.url);
    const created = await call(`${s.url}/customers/${customerId}/carts`, { method: "POST", json: { items: [] } });
    assert.equal(created.status, 201);
    const url = `${s.url}${created.headers.get("location")}`;
    const put = await call(url, { method: "PUT", json: { items: [item("x", 2, 5)] } });
    assert.equal(put.status, 200);
    assert.deepEqual(put.json.items, [item("x", 2, 5)]);
    assert.equal(put.headers.get("etag"), '"v2"');
    const again = await call(url, { method: "PUT", json: { items: [item("x", 2, 5)] } });
    assert.equal(again.headers.get("etag"), '"v2"');
    const stale = await call(url, { method: "PUT", json: { items: [] }, headers: { "If-Match": '"v1"' } });
    assert.equal(stale.status, 412);
    assert.equal((await call(url, { method: "DELETE" })).status, 204);
    assert.equal((await call(url)).status, 410);
    assert.equal((await call(url, { method: "PUT", json: { items: [] } })).status, 410);
    assert.equal((await call(`${s.url}/carts/crt_none`)).status, 404);
  });

  it("lists a customer's carts", async () => {
    const { customerId } = await newCustomer(s.url);
    const a = await newCart(s.url, customerId);
    const b = await newCart(s.url, customerId);
    const list = await call(`${s.url}/customers/${customerId}/carts`);
    assert.deepEqual(
      list.json.items.map((c: { cartId: string }) => c.cartId),
      [a.cartId, b.cartId],
    );
    assert.equal(list.json.nextCursor, null);
  });

  it("checkout → 202 + Location: /jobs/{id}; the job succeeds with the order's URL; one order; the cart is frozen", async () => {
    const { customerId } = await newCustomer(s.url);
    const { cartId } = await newCart(s.url, customerId, [item("a", 2, 2.5), item("b", 1, 1)]);
    const accepted = await call(`${s.url}/carts/${cartId}/checkout`, { method: "POST" });
    assert.equal(accepted.status, 202);
    const jobUrl = accepted.headers.get("location")!;
    assert.match(jobUrl, /^\/jobs\/job_/);
    assert.ok(["PENDING", "RUNNING", "SUCCEEDED"].includes(accepted.json.status));
    const job = await settle(s.url, jobUrl);
    assert.equal(job.status, "SUCCEEDED");
    const order = await call(`${s.url}${job.result.orderUrl}`);
    assert.equal(order.status, 200);
    assert.equal(order.json.total, 6);
    assert.equal(order.json.customerId, customerId);
    const orders = await call(`${s.url}/customers/${customerId}/orders`);
    assert.equal(orders.json.items.length, 1);
    const twice = await call(`${s.url}/carts/${cartId}/checkout`, { method: "POST" });
    assert.equal(twice.status, 409);
    assert.match(twice.json.detail, /checked out/);
    assert.equal((await call(`${s.url}/carts/${cartId}`, { method: "PUT", json: { items: [] } })).status, 409);
  });

  it("checkout of an empty cart → 409; of a missing cart → 404; job monitor of an unknown job → 404", async () => {
    const { customerId } = await newCustomer(s.url);
    const { cartId } = await newCart(s.url, customerId, []);
    const res = await call(`${s.url}/carts/${cartId}/checkout`, { method: "POST" });
    assert.equal(res.status, 409);
    assert.match(res.json.detail, /empty/);
    assert.equal((await call(`${s.url}/carts/crt_none/checkout`, { method: "POST" })).status, 404);
    assert.equal((await call(`${s.url}/jobs/job_none`)).status, 404);
  });

  it("a job whose customer is deleted before it runs reports FAILED with a problem", async () => {
    const { customerId } = await newCustomer(s.url);
    const { cartId } = await newCart(s.url, customerId);
    await s.app.stopJobs();
    try {
      const accepted = await call(`${s.url}/carts/${cartId}/checkout`, { method: "POST" });
      assert.equal(accepted.json.status, "PENDING");
      await call(`${s.url}/customers/${customerId}`, { method: "DELETE" });
      s.app.resumeJobs();
      const job = await settle(s.url, accepted.headers.get("location")!);
      assert.equal(job.status, "FAILED");
      assert.equal(job.error.title, "Checkout failed");
      assert.match(job.error.detail, /deleted/);
    } finally {
      s.app.resumeJobs();
    }
  });
});

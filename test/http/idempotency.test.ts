// Idempotency-Key on POST: a repeat replays the first response instead of creating again.
import assert from "node:assert/strict";
import { ABANDONED_MS, fingerprint } from "../../packages/twinspec/src/http/idempotency.js";
import { item, newCart, newCustomer } from "../support/fixtures.js";
import { ada, call, startServer, type TestServer } from "../support/server.js";

describe("Idempotency-Key", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const post = (path: string, json: unknown, key: string) => call(`${s.url}${path}`, { method: "POST", json, headers: { "Idempotency-Key": key } });

  it("a repeated POST with the same key and body replays the first 201: one customer, same body and Location", async () => {
    const first = await post("/customers", { ...ada, email: "idem@example.com" }, "key-1");
    const again = await post("/customers", { ...ada, email: "idem@example.com" }, "key-1");
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.json, first.json);
    assert.equal(again.headers.get("location"), first.headers.get("location"));
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    const list = await call(`${s.url}/customers`);
    assert.equal(list.json.items.filter((c: { email: string }) => c.email === "idem@example.com").length, 1);
  });

  it("the same key with a different body → 422, nothing created", async () => {
    await post("/customers", { ...ada, email: "k2@example.com" }, "key-2");
    const other = await post("/customers", { ...ada, email: "k2-other@example.com" }, "key-2");
    assert.equal(other.status, 422);
    assert.equal(other.headers.get("content-type"), "application/problem+json");
    assert.match(other.json.detail, /different request/);
    const list = await call(`${s.url}/customers?limit=100`);
    assert.ok(!list.json.items.some((c: { email: string }) => c.email === "k2-other@example.com"));
  });

  it("works on every POST: orders, carts, checkout (one job), merge; without a key POST stays non-idempotent", async () => {
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
    const n1 = await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [item()] } });
    const n2 = await call(`${s.url}/customers/${customerId}/orders`, { method: "POST", json: { items: [item()] } });
    assert.notEqual(n1.json.orderId, n2.json.orderId);
  });

  it("a key whose first request is still unanswered → 409; one abandoned by a crashed server is free again", async () => {
    const pending = (key: string, ageMs: number, body: object) =>
      s.store.db
        .insertInto("idempotency_keys")
        .values({ scope: "test-admin", key, fingerprint: fingerprint("createCustomer", { body }), status: null, headers: null, body: null, created_at: new Date(Date.now() - ageMs).toISOString() })
        .execute();
    await pending("in-flight", 1_000, { ...ada, email: "inflight@example.com" });
    const busy = await post("/customers", { ...ada, email: "inflight@example.com" }, "in-flight");
    assert.equal(busy.status, 409);
    await pending("abandoned", ABANDONED_MS + 5_000, { ...ada, email: "abandoned@example.com" });
    const retried = await post("/customers", { ...ada, email: "abandoned@example.com" }, "abandoned");
    assert.equal(retried.status, 201, retried.text);
    const replay = await post("/customers", { ...ada, email: "abandoned@example.com" }, "abandoned");
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
  });

  it("a declared failure is replayed too (the first answer stands)", async () => {
    const first = await post("/customers/nobody/orders", { items: [item()] }, "fail-key");
    assert.equal(first.status, 404);
    const again = await post("/customers/nobody/orders", { items: [item()] }, "fail-key");
    assert.equal(again.status, 404);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  });
});

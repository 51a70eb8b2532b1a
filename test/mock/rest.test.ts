// The mock server's REST side, walked over every operation of openapi.yaml: its default answer and the answer to
// `Prefer: code=NNN` for every status it declares, each checked against the spec with Ajv (test/support/mock.ts);
// an undeclared code refused; the same authorization, validation and transport rules as the real server.
import assert from "node:assert/strict";
import { token } from "../support/auth.js";
import { mismatches, startMockServer, type MockServer } from "../support/mock.js";
import { call } from "../support/server.js";
import { operations, pathParams, resources, send, type Operation } from "../support/spec.js";

/** Ids for every path parameter: `<prefix>_mock<n>` for resources, anything valid otherwise. */
const ids = Object.fromEntries(
  [...new Set(operations.flatMap((op) => pathParams(op.path)))].map((name, n) => {
    const resource = Object.values(resources).find((r) => r.id === name);
    return [name, `${resource?.idPrefix ?? "id"}_mock${n}`];
  }),
);
const statuses = (op: Operation) => Object.keys(op.responses).filter((s) => /^\d{3}$/.test(s)).map(Number);

describe("mock server: REST (every operation of openapi.yaml)", () => {
  let s: MockServer;
  before(async () => (s = await startMockServer({ bodyLimit: 4096 })));
  after(() => s.close());

  for (const op of operations) {
    it(`${op.operationId}: the first success by default, and every declared status under Prefer: code=…, each as declared`, async () => {
      const success = Math.min(...statuses(op).filter((st) => st >= 200 && st < 300));
      const plain = await send(s.url, op, ids);
      assert.equal(plain.status, success, plain.text);
      assert.deepEqual(mismatches(op, plain), [], `${op.operationId} ${plain.status}: ${plain.text}`);
      for (const status of statuses(op)) {
        const res = await send(s.url, op, ids, { headers: { prefer: `code=${status}` } });
        assert.equal(res.status, status, `Prefer: code=${status}: ${res.text}`);
        assert.deepEqual(mismatches(op, res), [], `${op.operationId} ${status}: ${res.text}`);
        if (res.headers.get("content-type") === "application/problem+json") assert.equal(res.json.status, status, "a problem names its status");
      }
    });
  }

  it("answers an undeclared Prefer code with 400, naming the codes that are declared", async () => {
    const op = operations.find((o) => o.operationId === "getCustomer")!;
    const res = await send(s.url, op, ids, { headers: { prefer: "code=418" } });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const declared = Object.keys(op.responses).filter((c) => /^\d{3}$/.test(c)).sort().join(", ");
    assert.ok(declared.startsWith("200, 301, 304, 400"), declared);
    assert.ok(res.json.detail.includes(`code=418 is not a status getCustomer declares; it declares ${declared}`), res.json.detail);
    assert.deepEqual(res.json.errors.map((e: { in: string; pointer: string }) => [e.in, e.pointer]), [["header", "/Prefer"]]);
    const named = await send(s.url, op, ids, { headers: { prefer: "example=grace" } });
    assert.equal(named.status, 400);
    assert.match(named.json.detail, /example=grace: getCustomer 200 has no named examples/);
  });

  it("answers from the spec's examples, echoing what the request names; Location names the resource made", async () => {
    const got = await call(`${s.url}/customers/cus_42`);
    assert.equal(got.status, 200);
    assert.deepEqual({ ...got.json }, { customerId: "cus_42", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", createdAt: "2026-11-24T10:00:00.000Z", updatedAt: "2026-11-24T10:00:00.000Z" });
    assert.equal(got.headers.get("etag"), '"v1"');
    const orders = await call(`${s.url}/customers/cus_42/orders`);
    assert.deepEqual(orders.json.items.map((o: { customerId: string }) => o.customerId), ["cus_42"]);
    const made = await call(`${s.url}/customers`, { method: "POST", json: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" } });
    assert.equal(made.status, 201);
    assert.equal(made.json.firstName, "Grace");
    assert.equal(made.headers.get("location"), `/customers/${made.json.customerId}`);
    const patched = await call(`${s.url}/orders/ord_7`, { method: "PATCH", body: '{"status":"SHIPPED"}', headers: { "content-type": "application/merge-patch+json" } });
    assert.deepEqual([patched.status, patched.json.orderId, patched.json.status], [200, "ord_7", "SHIPPED"]);
    const minimal = await call(`${s.url}/customers/cus_42`, { method: "PATCH", body: '{"lastName":"King"}', headers: { "content-type": "application/merge-patch+json", prefer: "return=minimal" } });
    assert.deepEqual([minimal.status, minimal.headers.get("etag")], [204, '"v1"']);
    const checkout = await call(`${s.url}/carts/crt_1/checkout`, { method: "POST" });
    assert.equal(checkout.status, 202);
    assert.equal(checkout.headers.get("location"), `/jobs/${checkout.json.jobId}`);
  });

  it("applies conditional requests to its answers: If-None-Match with the answer's ETag is a 304", async () => {
    const res = await call(`${s.url}/orders/ord_1`, { headers: { "if-none-match": '"v1"' } });
    assert.equal(res.status, 304);
    assert.equal(res.text, "");
  });

  it("authorizes as the real server: 401 without a token, 403 without the scope or on every customer's data; an instance counts as the caller's", async () => {
    const list = operations.find((o) => o.operationId === "listCustomers")!;
    const none = await send(s.url, list, ids, { token: null });
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="twinspec"');
    const expired = await send(s.url, list, ids, { token: await token("ops", "admin", -10) });
    assert.equal(expired.status, 401);
    assert.match(expired.headers.get("www-authenticate")!, /error="invalid_token"/);
    const customer = await token("cus_mock0", "customers:read orders:read");
    assert.equal((await send(s.url, list, ids, { token: customer })).status, 403, "a collection of every customer needs admin");
    const order = operations.find((o) => o.operationId === "getOrder")!;
    assert.equal((await send(s.url, order, ids, { token: customer })).status, 200, "no data says whose an order is: it is the caller's");
    const cart = operations.find((o) => o.operationId === "getCart")!;
    const lacking = await send(s.url, cart, ids, { token: customer, headers: { prefer: "code=200" } });
    assert.equal(lacking.status, 403, "auth comes before Prefer");
    assert.match(lacking.headers.get("www-authenticate")!, /error="insufficient_scope", scope="carts:read"/);
  });

  it("validates as the real server: 400 naming each bad input, 415, 406, 413, 405, unknown paths 404", async () => {
    const place = operations.find((o) => o.operationId === "placeOrder")!;
    const bad = await send(s.url, place, { customerId: "not an id!" }, { body: { items: [{ sku: "B", quantity: 0, unitPrice: 1 }], note: "x" }, headers: { prefer: "code=201" } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json.errors.map((e: { in: string; pointer: string }) => `${e.in} ${e.pointer}`).sort(), ["body /items/0/quantity", "body /note", "path /customerId"]);
    const wrongType = await send(s.url, place, ids, { headers: { "content-type": "text/plain" }, raw: "hello" });
    assert.equal(wrongType.status, 415);
    const html = await send(s.url, place, ids, { headers: { accept: "text/html" } });
    assert.equal(html.status, 406);
    const big = await send(s.url, place, ids, { body: { items: [{ sku: "B".repeat(5000), quantity: 1, unitPrice: 1 }] } });
    assert.equal(big.status, 413);
    const method = await call(`${s.url}/orders/ord_1`, { method: "DELETE" });
    assert.equal(method.status, 405);
    assert.equal(method.headers.get("allow"), "GET, PATCH, HEAD, OPTIONS");
    const unknown = await call(`${s.url}/no-such-collection`);
    assert.equal(unknown.status, 404);
    assert.ok(unknown.json.entryPoints.includes("/customers"));
  });

  it("serves /healthz, /readyz (no database to wait for) and the specs", async () => {
    assert.deepEqual((await call(`${s.url}/healthz`)).json, { status: "ok" });
    assert.deepEqual((await call(`${s.url}/readyz`)).json, { status: "ready", mock: true });
    assert.equal((await call(`${s.url}/openapi.json`)).json.info.title, "Twinspec commerce API");
  });
});

// No lost updates: parallel writers holding the same ETag — exactly one wins, the rest get 412.
import assert from "node:assert/strict";
import { mergePatch, newCustomer } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("concurrent conditional writes", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("20 parallel PATCHes with the same If-Match → exactly one 200 and 19 × 412, and the winner's change is stored", async () => {
    const { customerId } = await newCustomer(s.url);
    const url = `${s.url}/customers/${customerId}`;
    const etag = (await call(url)).headers.get("etag")!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(url, mergePatch({ lastName: `Writer${i}` }, { "If-Match": etag }))),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array(19).fill(412)]);
    const winner = results.find((r) => r.status === 200)!;
    const now = await call(url);
    assert.equal(now.json.lastName, winner.json.lastName);
    assert.equal(now.headers.get("etag"), '"v2"');
  });

  it("the same for order status changes: one transition wins, one event, no double move", async () => {
    const { customerId } = await newCustomer(s.url);
    const order = await call(`${s.url}/customers/${customerId}/orders`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
    });
    const url = `${s.url}/orders/${order.json.orderId}`;
    const events: string[] = [];
    const off = s.app.bus.subscribe("orderStatusChanged", (e) => events.push(e.status));
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => call(url, mergePatch({ status: "PAID" }, { "If-Match": '"v1"' }))),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(9).fill(412)]);
      assert.deepEqual(events, ["PAID"]);
    } finally {
      off();
    }
  });
});

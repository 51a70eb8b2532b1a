// The client package's parseWebhook (client/generated/webhooks.ts) as a receiver on 127.0.0.1 uses it: what the real
// server delivers for a status change parses, typed by openapi.yaml's orderStatusChanged; the same delivery again is a
// replay; a body the declared schema refuses (re-signed with the endpoint's secret by the standardwebhooks library,
// so only the schema can catch it) is refused naming the field, as a bad signature and a stale timestamp are.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { parseWebhook, WebhookRefused, type WebhookEvent } from "twinspec-commerce-client";
import { ada, call, startServer, type TestServer } from "../support/server.js";
import { until } from "../support/wait.js";

const FAST = { scheduleMs: [20, 20, 20], pollMs: 20, policy: { allowHttp: true, allowPrivate: true } };

describe("parseWebhook (client/): a receiver of the real server's deliveries", function () {
  this.timeout(60_000);
  let s: TestServer;
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  let secret = "";
  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    s = await startServer({ webhooks: FAST });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    ({ secret } = await s.app.webhooks!.endpoints.create({ url, events: ["orderStatusChanged"], owner: null }));
  });
  after(async () => {
    await s?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const refused = (f: () => unknown, reason: string, message?: RegExp) =>
    assert.throws(f, (e: unknown) => {
      assert.ok(e instanceof WebhookRefused, String(e));
      assert.equal(e.reason, reason, e.message);
      if (message) assert.match(e.message, message);
      return true;
    });

  it("a status change parses, typed by the declared webhook; the same delivery again is a replay", async () => {
    const customer = (await call(`${s.url}/customers`, { method: "POST", json: ada })).json;
    const placed = await call(`${s.url}/customers/${customer.customerId}/orders`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
    });
    const paid = await call(`${s.url}/orders/${placed.json.orderId}`, {
      method: "PATCH",
      json: { status: "PAID" },
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(paid.status, 200, paid.text);
    await until(() => got.length >= 1, "a delivery");
    const seen = new Set<string>();
    const event: WebhookEvent = parseWebhook(secret, got[0].headers, got[0].body, seen);
    assert.equal(event.type, "orderStatusChanged");
    const { orderId, customerId, status } = parseWebhook.orderStatusChanged(
      secret,
      got[0].headers,
      got[0].body,
      new Set(),
    ).data;
    assert.deepEqual(
      { orderId, customerId, status },
      { orderId: placed.json.orderId, customerId: customer.customerId, status: "PAID" },
    );
    assert.equal(event.id, got[0].headers["webhook-id"]);
    refused(() => parseWebhook(secret, got[0].headers, got[0].body, seen), "replay");
  });

  it("refuses a body the declared schema refuses, a bad signature and a stale timestamp", () => {
    const { body } = got[0];
    const resign = (id: string, payload: unknown, at = new Date()) => {
      const raw = JSON.stringify(payload);
      return {
        raw,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": new Webhook(secret).sign(id, at, raw),
        },
      };
    };
    const original = JSON.parse(body);
    const cases = [
      [{ ...original, data: { ...original.data, status: "LOST" } }, /\/data\/status: /],
      [{ ...original, data: { ...original.data, orderId: undefined } }, /\/data: .*"orderId"/],
      [{ ...original, data: { ...original.data, sentAt: "yesterday" } }, /\/data\/sentAt: .*date-time/],
    ] as const;
    cases.forEach(([payload, message], n) => {
      const { raw, headers } = resign(`tampered-${n}`, payload);
      refused(() => parseWebhook(secret, headers, raw, new Set()), "payload", message);
    });
    const { raw, headers } = resign("stale", original, new Date(Date.now() - 3_600_000));
    refused(() => parseWebhook(secret, headers, raw, new Set()), "signature");
    refused(
      () => parseWebhook(`whsec_${Buffer.from("x".repeat(24)).toString("base64")}`, got[0].headers, body, new Set()),
      "signature",
    );
  });
});

// Small builders for test data over the real REST API.
import assert from "node:assert/strict";
import { ada, call } from "./server.js";

let n = 0;
export const item = (sku = "sku-1", quantity = 2, unitPrice = 9.99) => ({ sku, quantity, unitPrice });
export const mergePatch = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "PATCH",
  body: JSON.stringify(body),
  headers: { "content-type": "application/merge-patch+json", ...headers },
});

export async function newCustomer(base: string, overrides: object = {}) {
  const res = await call(`${base}/customers`, {
    method: "POST",
    json: { ...ada, email: `c${++n}-${Date.now()}@example.com`, ...overrides },
  });
  assert.equal(res.status, 201, res.text);
  return res.json as { customerId: string; email: string };
}

export async function newOrder(base: string, customerId: string, items = [item()]) {
  const res = await call(`${base}/customers/${customerId}/orders`, { method: "POST", json: { items } });
  assert.equal(res.status, 201, res.text);
  return res.json as { orderId: string; status: string; total: number };
}

export async function newCart(base: string, customerId: string, items = [item()]) {
  const res = await call(`${base}/customers/${customerId}/carts`, { method: "POST", json: { items } });
  assert.equal(res.status, 201, res.text);
  return res.json as { cartId: string };
}

/** Polls the job until it is final. */
export async function settle(base: string, jobUrl: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`${base}${jobUrl}`);
    if (res.json.status === "SUCCEEDED" || res.json.status === "FAILED") return res.json;
    if (Date.now() > until) throw new Error(`job ${jobUrl} still ${res.json.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

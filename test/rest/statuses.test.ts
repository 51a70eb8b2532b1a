// Declared statuses that every operation of a kind can answer, produced by walking openapi.yaml's operations:
// 400 for a malformed path id, 404 for an unknown one, 410 for a deleted target, 304 for a current ETag,
// 422 for an Idempotency-Key reused with another request. Operation-specific outcomes live in their own tests.
import assert from "node:assert/strict";
import { operationSpecs } from "../../generated/rest.js";
import { BODIES } from "../support/bodies.js";
import { mergePatch, newCustomer, newWorld } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

const declares = (op: (typeof operationSpecs)[number], status: number) => String(status) in op.responses;
const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

describe("declared statuses, walked over every operation", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const world = async () => (await newWorld(s.url)).ids;

  function send(op: (typeof operationSpecs)[number], ids: Record<string, string>, init: { headers?: Record<string, string>; body?: unknown } = {}) {
    const sample = BODIES[op.operationId];
    const body = init.body ?? sample?.body;
    return call(`${s.url}${op.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(ids[n]))}`, {
      method: op.method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(sample ? { "content-type": sample.type } : {}), ...init.headers },
      redirect: "manual",
    });
  }

  for (const op of operationSpecs) {
    const params = pathParams(op.path);

    if (params.length > 0 && declares(op, 400)) {
      it(`${op.operationId}: a malformed ${params.at(-1)} → 400 naming it`, async () => {
        const ids = { ...(await world()), [params.at(-1)!]: "bad id!" };
        const res = await send(op, ids);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json.errors.map((e: { in: string; pointer: string }) => `${e.in}:${e.pointer}`), [`path:/${params.at(-1)}`]);
      });
    }

    if (params.length > 0 && declares(op, 404)) {
      it(`${op.operationId}: an unknown ${params.at(-1)} → 404`, async () => {
        const ids = { ...(await world()), [params.at(-1)!]: "nothing_here" };
        const res = await send(op, ids, op.operationId === "mergeCustomer" ? { body: { into: (await newCustomer(s.url)).customerId } } : {});
        assert.equal(res.status, 404, res.text);
      });
    }

    if (declares(op, 410)) {
      it(`${op.operationId}: a deleted target (or a deleted customer's) → 410`, async () => {
        const ids = await world();
        if (params.includes("cartId") && op.operationId !== "checkoutCart") await call(`${s.url}/carts/${ids.cartId}`, { method: "DELETE" });
        else await call(`${s.url}/customers/${ids.customerId}`, { method: "DELETE" });
        const res = await send(op, ids, op.operationId === "mergeCustomer" ? { body: { into: (await newCustomer(s.url)).customerId } } : {});
        assert.equal(res.status, 410, res.text);
      });
    }

    if (op.method === "GET" && declares(op, 304)) {
      it(`${op.operationId}: If-None-Match with the current ETag → 304`, async () => {
        const ids = await world();
        const first = await send(op, ids);
        assert.equal(first.status, 200);
        const again = await send(op, ids, { headers: { "If-None-Match": first.headers.get("etag")! } });
        assert.equal(again.status, 304);
      });
    }

    if (declares(op, 422) && op.parameters.some((p) => p.name === "Idempotency-Key")) {
      it(`${op.operationId}: an Idempotency-Key reused with another request → 422`, async () => {
        const a = await world();
        const b = await world();
        const key = `walk-${op.operationId}-${Date.now()}`;
        const body = op.operationId === "mergeCustomer" ? { into: b.customerId } : undefined;
        const first = await send(op, a, { headers: { "Idempotency-Key": key }, body });
        assert.ok(first.status < 500, first.text);
        // Another request: other path ids, or (for a collection) another body.
        const otherBody = op.operationId === "mergeCustomer" ? { into: a.customerId } : pathParams(op.path).length === 0 ? { ...(BODIES[op.operationId].body as object), email: `other-${key}@example.com` } : undefined;
        const other = await send(op, b, { headers: { "Idempotency-Key": key }, body: otherBody });
        assert.equal(other.status, 422, other.text);
      });
    }
  }

  it("putCustomer / patchCustomer to another live customer's email → 409", async () => {
    const a = await newCustomer(s.url);
    const b = await newCustomer(s.url);
    const put = await call(`${s.url}/customers/${b.customerId}`, { method: "PUT", json: { firstName: "B", lastName: "B", email: a.email } });
    assert.equal(put.status, 409);
    const patch = await call(`${s.url}/customers/${b.customerId}`, mergePatch({ email: a.email }));
    assert.equal(patch.status, 409);
  });

  it("deleteCart with a stale If-Match → 412, the cart stays", async () => {
    const { cartId } = await world();
    const res = await call(`${s.url}/carts/${cartId}`, { method: "DELETE", headers: { "If-Match": '"v99"' } });
    assert.equal(res.status, 412);
    assert.equal((await call(`${s.url}/carts/${cartId}`)).status, 200);
  });
});

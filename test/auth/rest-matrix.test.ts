// The authorization matrix for REST, generated from openapi.yaml's operations and their `security`: every
// secured operation with no token (401), a token lacking the scope (403), another customer's token (403), and
// the right token (neither). It grows by itself when the spec grows.
import assert from "node:assert/strict";
import { operationSpecs } from "../../generated/rest.js";
import { token } from "../support/auth.js";
import { BODIES } from "../support/bodies.js";
import { newWorld } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

const secured = operationSpecs.filter((op) => op.security.length > 0 && op.security.every((alt) => alt.length > 0));
const scopesOf = (op: (typeof secured)[number]) => op.security[0].flatMap((r) => r.scopes);
const targetsOneCustomer = (op: (typeof secured)[number]) => /\{(customerId|orderId|cartId|jobId)\}/.test(op.path);

describe("REST authorization matrix (every secured operation of openapi.yaml)", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  /** Fresh resources of one customer for each operation, so destructive ones do not disturb the others. */
  for (const op of secured) {
    const scopes = scopesOf(op);
    it(`${op.operationId} (${op.method} ${op.path}, needs ${scopes.join(" ")})`, async () => {
      const { owner, other, ids } = await newWorld(s.url);
      const url = `${s.url}${op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name])}`;
      const sample = BODIES[op.operationId];
      const body = op.operationId === "mergeCustomer" ? { into: other.customerId } : sample?.body;
      const send = (authorization?: string) =>
        call(url, {
          method: op.method,
          body: body === undefined ? undefined : JSON.stringify(body),
          headers: { ...(sample ? { "content-type": sample.type } : {}), ...(authorization ? { authorization } : {}) },
          anonymous: authorization === undefined,
          redirect: "manual",
        });

      const none = await send();
      assert.equal(none.status, 401, `no token: ${none.text}`);
      assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="twinspec"');
      assert.equal(none.headers.get("content-type"), "application/problem+json");

      const lacking = await send(`Bearer ${await token(owner.customerId, "")}`);
      assert.equal(lacking.status, 403, `token without scopes: ${lacking.text}`);
      assert.match(lacking.headers.get("www-authenticate")!, /^Bearer realm="twinspec", error="insufficient_scope", scope="[^"]+"$/);

      const someoneElse = await send(`Bearer ${await token(other.customerId, scopes.filter((x) => x !== "admin").join(" ") || "customers:read")}`);
      assert.equal(someoneElse.status, 403, `another customer's token: ${someoneElse.text}`);

      const rightToken = targetsOneCustomer(op) && !scopes.includes("admin") ? await token(owner.customerId, scopes.join(" ")) : await token("ops", "admin");
      const right = await send(`Bearer ${rightToken}`);
      assert.ok(![401, 403].includes(right.status), `right token: ${right.status} ${right.text}`);
      assert.ok(right.status < 500, `right token: ${right.status} ${right.text}`);
    });
  }

  it("covers every operation of the spec (none is public)", () => {
    assert.equal(secured.length, operationSpecs.length);
  });
});

// Transport rules every resource shares: cache headers, compression, CORS.
import assert from "node:assert/strict";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ADMIN_TOKEN } from "../support/auth.js";
import { newCustomer } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

/** Raw GET (fetch would decompress and hide Content-Encoding). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("HTTP rules shared by all resources", () => {
  let s: TestServer;
  before(async () => (s = await startServer({ corsOrigins: ["https://app.example"] })));
  after(() => s.close());

  it("GET answers are private, revalidated, and vary by Accept, Accept-Encoding and Authorization", async () => {
    const { customerId } = await newCustomer(s.url);
    for (const res of [
      await call(`${s.url}/customers/${customerId}`),
      await call(`${s.url}/customers/${customerId}`, { headers: { "If-None-Match": '"v1"' } }),
    ]) {
      assert.equal(res.headers.get("cache-control"), "private, no-cache");
      assert.deepEqual(
        res.headers.get("vary")!.split(/,\s*/).sort(),
        ["Accept", "Accept-Encoding", "Authorization", "Origin"].sort(),
      );
    }
    const post = await call(`${s.url}/customers`, {
      method: "POST",
      json: { firstName: "A", lastName: "B", email: "cache@example.com" },
    });
    assert.equal(post.headers.get("cache-control"), null);
  });

  it("compresses large bodies with br or gzip by Accept-Encoding, and leaves small ones alone", async () => {
    for (let i = 0; i < 20; i++) await newCustomer(s.url);
    const br = await rawGet(`${s.url}/customers?limit=20`, { "Accept-Encoding": "br" });
    assert.equal(br.headers["content-encoding"], "br");
    assert.equal(JSON.parse(brotliDecompressSync(br.body).toString()).items.length, 20);
    const gzip = await rawGet(`${s.url}/customers?limit=20`, { "Accept-Encoding": "gzip" });
    assert.equal(gzip.headers["content-encoding"], "gzip");
    assert.equal(JSON.parse(gunzipSync(gzip.body).toString()).items.length, 20);
    const plain = await rawGet(`${s.url}/customers?limit=20`, { "Accept-Encoding": "identity" });
    assert.equal(plain.headers["content-encoding"], undefined);
    // No Accept-Encoding at all: the body as it is, still marked as varying by it.
    const none = await rawGet(`${s.url}/customers?limit=20`, {});
    assert.equal(none.headers["content-encoding"], undefined);
    assert.ok(String(none.headers.vary).includes("Accept-Encoding"));
    assert.deepEqual(none.body, plain.body);
    const small = await rawGet(`${s.url}/customers?limit=1`, { "Accept-Encoding": "br, gzip" });
    assert.equal(small.headers["content-encoding"], undefined);
    assert.ok(br.body.length < plain.body.length / 2);
  });

  it("CORS: an allowed origin gets its origin back with credentials and the exposed headers; others get nothing", async () => {
    const res = await call(`${s.url}/customers`, { headers: { Origin: "https://app.example" } });
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    const exposed = res.headers.get("access-control-expose-headers")!.split(",");
    for (const h of ["Location", "ETag", "Link", "X-Request-Id", "Retry-After", "RateLimit-Policy", "RateLimit"])
      assert.ok(exposed.includes(h), h);
    const other = await call(`${s.url}/customers`, { headers: { Origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
  });

  it("CORS preflight is answered with the allowed methods and headers", async () => {
    const res = await call(`${s.url}/customers/x`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "authorization, content-type, if-match",
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(res.headers.get("access-control-allow-methods")!, /PATCH/);
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    for (const h of ["Authorization", "Content-Type", "If-Match"])
      assert.match(res.headers.get("access-control-allow-headers")!, new RegExp(h));
    const refused = await call(`${s.url}/customers/x`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "PATCH" },
    });
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
  });
});

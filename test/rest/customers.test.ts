// Customers over REST, end to end: every method and the statuses the spec declares for them.
import assert from "node:assert/strict";
import { ada, call, startServer, type TestServer } from "../support/server.js";

describe("REST customers", () => {
  // One server for the file: each test makes the customers it reads, but the listing's, which has one of its own.
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const create = async (body: object = ada, server = s) => {
    const res = await call(`${server.url}/customers`, { method: "POST", json: body });
    assert.equal(res.status, 201, res.text);
    return res;
  };

  it("POST creates: 201, Location of the new resource, ETag, body; GET returns the same customer", async () => {
    const res = await create();
    assert.match(res.json.customerId, /^cus_/);
    assert.equal(res.headers.get("location"), `/customers/${res.json.customerId}`);
    assert.equal(res.headers.get("etag"), '"v1"');
    assert.deepEqual(
      { ...res.json, customerId: undefined, createdAt: undefined, updatedAt: undefined },
      { ...ada, customerId: undefined, createdAt: undefined, updatedAt: undefined },
    );
    const got = await call(`${s.url}${res.headers.get("location")}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, res.json);
    assert.equal(got.headers.get("etag"), '"v1"');
    assert.equal(got.headers.get("last-modified"), new Date(res.json.updatedAt).toUTCString());
    assert.match(got.headers.get("content-type") ?? "", /^application\/json/);
  });

  it("the same POST twice creates two customers (POST is not idempotent, SERVICE-SPEC §4.1 rule 1)", async () => {
    const a = await create();
    const b = await create();
    assert.deepEqual([a.status, b.status], [201, 201]);
    assert.notEqual(a.json.customerId, b.json.customerId);
    assert.notEqual(a.headers.get("location"), b.headers.get("location"));
    for (const made of [a, b])
      assert.equal((await call(`${s.url}${made.headers.get("location")}`)).json.email, ada.email);
  });

  it("If-None-Match with the current ETag → 304 without body; HEAD → headers only", async () => {
    const { json } = await create();
    const res = await call(`${s.url}/customers/${json.customerId}`, { headers: { "If-None-Match": '"v1"' } });
    assert.equal(res.status, 304);
    assert.equal(res.text, "");
    const stale = await call(`${s.url}/customers/${json.customerId}`, { headers: { "If-None-Match": '"v0"' } });
    assert.equal(stale.status, 200);
    const head = await call(`${s.url}/customers/${json.customerId}`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.text, "");
    assert.equal(head.headers.get("etag"), '"v1"');
    assert.equal(Number(head.headers.get("content-length")), Buffer.byteLength(stale.text));
  });

  it("PUT creates at a client-chosen id (201), replaces (200), and repeating it changes nothing", async () => {
    const url = `${s.url}/customers/my-own-id`;
    const created = await call(url, { method: "PUT", json: ada });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("location"), "/customers/my-own-id");
    const replaced = await call(url, { method: "PUT", json: { ...ada, lastName: "King" } });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.json.lastName, "King");
    assert.equal(replaced.headers.get("etag"), '"v2"');
    const again = await call(url, { method: "PUT", json: { ...ada, lastName: "King" } });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("etag"), '"v2"');
    assert.equal(again.json.updatedAt, replaced.json.updatedAt);
  });

  it("PATCH applies a merge patch: 200 with the new representation, 204 with Prefer: return=minimal", async () => {
    const { json } = await create();
    const url = `${s.url}/customers/${json.customerId}`;
    const patched = await call(url, {
      method: "PATCH",
      body: JSON.stringify({ lastName: "Byron" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.lastName, "Byron");
    assert.equal(patched.json.firstName, "Ada");
    const minimal = await call(url, {
      method: "PATCH",
      body: JSON.stringify({ firstName: "Augusta" }),
      headers: { "content-type": "application/merge-patch+json", Prefer: "return=minimal" },
    });
    assert.equal(minimal.status, 204);
    assert.equal(minimal.headers.get("etag"), '"v3"');
    assert.equal((await call(url)).json.firstName, "Augusta");
  });

  it("PATCH setting a required field to null → 400 naming it, nothing changed", async () => {
    const { json } = await create();
    const url = `${s.url}/customers/${json.customerId}`;
    const res = await call(url, {
      method: "PATCH",
      body: '{"email":null}',
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.json.errors.map((e: { pointer: string }) => e.pointer),
      ["/email"],
    );
    assert.equal((await call(url)).json.email, ada.email);
  });

  it("If-Match that does not match the current ETag → 412 and no change (PUT, PATCH, DELETE)", async () => {
    const { json } = await create();
    const url = `${s.url}/customers/${json.customerId}`;
    const put = await call(url, { method: "PUT", json: { ...ada, lastName: "X" }, headers: { "If-Match": '"v9"' } });
    assert.equal(put.status, 412);
    const patch = await call(url, {
      method: "PATCH",
      body: '{"lastName":"Y"}',
      headers: { "content-type": "application/merge-patch+json", "If-Match": '"v9"' },
    });
    assert.equal(patch.status, 412);
    const del = await call(url, { method: "DELETE", headers: { "If-Match": '"v9"' } });
    assert.equal(del.status, 412);
    const now = await call(url);
    assert.equal(now.status, 200);
    assert.equal(now.json.lastName, ada.lastName);
    const ok = await call(url, { method: "PUT", json: { ...ada, lastName: "Z" }, headers: { "If-Match": '"v1"' } });
    assert.equal(ok.status, 200);
  });

  it("DELETE → 204, then 410 Gone on every later request to it; DELETE of what never existed → 404", async () => {
    const { json } = await create();
    const url = `${s.url}/customers/${json.customerId}`;
    assert.equal((await call(url, { method: "DELETE" })).status, 204);
    for (const init of [
      {},
      { method: "DELETE" },
      { method: "PUT", json: ada },
      { method: "PATCH", body: '{"lastName":"B"}', headers: { "content-type": "application/merge-patch+json" } },
    ]) {
      const res = await call(url, init);
      assert.equal(res.status, 410, `${(init as { method?: string }).method ?? "GET"} after delete`);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
    }
    assert.equal((await call(`${s.url}/customers/never-was`, { method: "DELETE" })).status, 404);
    assert.equal((await call(`${s.url}/customers/never-was`)).status, 404);
  });

  it("lists page by page with an opaque cursor and a Link to the next page", async () => {
    const own = await startServer();
    try {
      for (let i = 0; i < 5; i++) await create({ ...ada, email: `ada${i}@example.com` }, own);
      const seen: string[] = [];
      let next: string | null = "/customers?limit=2";
      let pages = 0;
      while (next) {
        const res = await call(`${own.url}${next}`);
        assert.equal(res.status, 200);
        seen.push(...res.json.items.map((c: { email: string }) => c.email));
        const link = res.headers.get("link");
        next = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
        assert.equal(Boolean(res.json.nextCursor), Boolean(link));
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(
        seen,
        [0, 1, 2, 3, 4].map((i) => `ada${i}@example.com`),
      );
    } finally {
      await own.close();
    }
  });
});

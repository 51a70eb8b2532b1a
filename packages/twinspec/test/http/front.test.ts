// The front (src/http/front.ts) answers the spec's operations and POST /graphql outside Koa's own handling; a request
// with an Origin (CORS) takes Koa's full chain. Whichever path a request takes, the answer is the same: status, body
// and headers, but for CORS's own and the per-request ones (id, date, rate-limit counts).
import assert from "node:assert/strict";
import { call, newAuthor, startServer, type TestServer } from "../support/server.js";

const ORIGIN = "https://app.example";
const PER_REQUEST = new Set(["x-request-id", "date", "ratelimit", "keep-alive", "connection"]);

/** The headers that must agree across the two paths (CORS's own and Vary's Origin aside). */
function comparable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (PER_REQUEST.has(name) || name.startsWith("access-control-")) return;
    out[name] = name === "vary" ? value.split(/,\s*/).filter((v) => v !== "Origin").sort().join(", ") : value;
  });
  return out;
}

async function bothPaths(url: string, init: Parameters<typeof call>[1] = {}) {
  const direct = await call(url, init);
  const viaKoa = await call(url, { ...init, headers: { ...(init.headers as Record<string, string>), origin: ORIGIN } });
  return { direct, viaKoa };
}

describe("the front: the hot paths outside Koa's handling answer as Koa's chain does", () => {
  let s: TestServer;
  before(async () => (s = await startServer({ corsOrigins: [ORIGIN] })));
  after(() => s.close());

  it("REST reads, conditional reads, HEAD, refusals and problems: the same answer with and without an Origin", async () => {
    const { authorId } = await newAuthor(s.url);
    const cases: [string, Parameters<typeof call>[1]][] = [
      [`/authors/${authorId}`, {}],
      [`/authors/${authorId}`, { headers: { "if-none-match": '"v1"' } }],
      [`/authors/${authorId}`, { method: "HEAD" }],
      [`/authors?limit=1`, {}],
      [`/authors/nobody`, {}],
      [`/authors/${authorId}`, { anonymous: true }],
      [`/authors?limit=0`, {}],
      [`/authors/${authorId}`, { method: "POST", json: {} }],
    ];
    for (const [path, init] of cases) {
      const { direct, viaKoa } = await bothPaths(`${s.url}${path}`, init);
      const what = `${init?.method ?? "GET"} ${path}`;
      assert.equal(direct.status, viaKoa.status, what);
      assert.deepEqual(comparable(direct.headers), comparable(viaKoa.headers), what);
      assert.equal(viaKoa.headers.get("access-control-allow-origin"), ORIGIN, what);
      assert.equal(direct.headers.get("access-control-allow-origin"), null, what);
      // Problems name their request: the ids differ, the rest agrees.
      const body = (r: typeof direct) => (r.json && typeof r.json === "object" && "requestId" in r.json ? { ...r.json, requestId: "-" } : r.text);
      assert.deepEqual(body(direct), body(viaKoa), what);
    }
  });

  it("POST /graphql: the same answer with and without an Origin, for data and for a coded error", async () => {
    const { authorId } = await newAuthor(s.url);
    for (const query of [`{ author(authorId: "${authorId}") { authorId name } }`, "{ author(authorId: 1 }"]) {
      const init = { method: "POST", json: { query }, headers: { accept: "application/graphql-response+json" } };
      const { direct, viaKoa } = await bothPaths(`${s.url}/graphql`, init);
      assert.equal(direct.status, viaKoa.status, query);
      assert.deepEqual(direct.json, viaKoa.json, query);
      assert.deepEqual(comparable(direct.headers), comparable(viaKoa.headers), query);
    }
  });

  it("a write through the front is acknowledged and visible through Koa's chain, and the reverse", async () => {
    const { authorId } = await newAuthor(s.url);
    const created = await call(`${s.url}/authors/${authorId}/notes`, { method: "POST", json: { title: "Front", body: "front door" } });
    assert.equal(created.status, 201);
    const seen = await call(`${s.url}${created.headers.get("location")}`, { headers: { origin: ORIGIN } });
    assert.equal(seen.json.body, "front door");
    const patched = await call(`${s.url}${created.headers.get("location")}`, { method: "PATCH", json: { title: "Way" }, headers: { origin: ORIGIN, "content-type": "application/merge-patch+json" } });
    assert.equal(patched.status, 200);
    assert.equal((await call(`${s.url}${created.headers.get("location")}`)).json.title, "Way");
  });
});

// Every kind of malformed request gets a precise 4xx problem+json, and nothing is stored.
import assert from "node:assert/strict";
import { ada, call, startServer, type TestServer } from "../support/server.js";

interface Case {
  name: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  status: number;
  /** the `in:pointer` entries errors[] must name exactly, when the status is 400 for bad fields */
  fields?: string[];
  detail?: RegExp;
}

const json = { "content-type": "application/json" };
const mergePatch = { "content-type": "application/merge-patch+json" };

const cases: Case[] = [
  {
    name: "missing required field",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ firstName: "A", lastName: "B" }),
    headers: json,
    status: 400,
    fields: ["body:/email"],
  },
  {
    name: "every missing field at once",
    method: "POST",
    path: "/customers",
    body: "{}",
    headers: json,
    status: 400,
    fields: ["body:/firstName", "body:/lastName", "body:/email"],
  },
  {
    name: "wrong type",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ ...ada, firstName: 42 }),
    headers: json,
    status: 400,
    fields: ["body:/firstName"],
  },
  {
    name: "unknown field (policy: rejected, named)",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ ...ada, nickname: "x" }),
    headers: json,
    status: 400,
    fields: ["body:/nickname"],
  },
  {
    name: "read-only field sent",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ ...ada, customerId: "mine" }),
    headers: json,
    status: 400,
    fields: ["body:/customerId"],
  },
  {
    name: "bad email format",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ ...ada, email: "not-an-email" }),
    headers: json,
    status: 400,
    fields: ["body:/email"],
  },
  {
    name: "empty name",
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ ...ada, lastName: "" }),
    headers: json,
    status: 400,
    fields: ["body:/lastName"],
  },
  {
    name: "body is an array",
    method: "POST",
    path: "/customers",
    body: "[]",
    headers: json,
    status: 400,
    fields: ["body:"],
  },
  {
    name: "body is null",
    method: "POST",
    path: "/customers",
    body: "null",
    headers: json,
    status: 400,
    fields: ["body:"],
  },
  {
    name: "malformed JSON",
    method: "POST",
    path: "/customers",
    body: '{"firstName": "A",',
    headers: json,
    status: 400,
    detail: /not valid JSON/,
  },
  { name: "no body", method: "POST", path: "/customers", headers: json, status: 400, fields: ["body:"] },
  {
    name: "wrong content type",
    method: "POST",
    path: "/customers",
    body: "firstName=A",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
    detail: /application\/json/,
  },
  {
    name: "no content type",
    method: "POST",
    path: "/customers",
    body: JSON.stringify(ada),
    headers: { "content-type": "" },
    status: 415,
  },
  {
    name: "JSON where merge-patch is required",
    method: "PATCH",
    path: "/customers/cus_x",
    body: '{"lastName":"B"}',
    headers: json,
    status: 415,
    detail: /merge-patch/,
  },
  {
    name: "empty merge patch",
    method: "PATCH",
    path: "/customers/cus_x",
    body: "{}",
    headers: mergePatch,
    status: 400,
    fields: ["body:"],
  },
  {
    name: "path id with forbidden characters",
    method: "GET",
    path: "/customers/bad%20id!",
    status: 400,
    fields: ["path:/customerId"],
  },
  {
    name: "path id too long",
    method: "PUT",
    path: `/customers/${"x".repeat(65)}`,
    body: JSON.stringify(ada),
    headers: json,
    status: 400,
    fields: ["path:/customerId"],
  },
  { name: "limit not a number", method: "GET", path: "/customers?limit=ten", status: 400, fields: ["query:/limit"] },
  { name: "limit below 1", method: "GET", path: "/customers?limit=0", status: 400, fields: ["query:/limit"] },
  { name: "limit above 100", method: "GET", path: "/customers?limit=101", status: 400, fields: ["query:/limit"] },
  { name: "limit repeated", method: "GET", path: "/customers?limit=1&limit=2", status: 400, fields: ["query:/limit"] },
  {
    name: "cursor not issued by us",
    method: "GET",
    path: "/customers?cursor=garbage",
    status: 400,
    fields: ["query:/cursor"],
  },
  {
    name: "Idempotency-Key too long",
    method: "POST",
    path: "/customers",
    body: JSON.stringify(ada),
    headers: { ...json, "Idempotency-Key": "k".repeat(201) },
    status: 400,
    fields: ["header:/Idempotency-Key"],
  },
];

describe("REST bad input", () => {
  let s: TestServer;
  before(async () => (s = await startServer({ bodyLimit: 4096 })));
  after(() => s.close());

  const count = async () =>
    (
      await s.store.db
        .selectFrom("customers")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;

  for (const c of cases) {
    it(`${c.name} → ${c.status}`, async () => {
      const before = await count();
      const res = await call(`${s.url}${c.path}`, { method: c.method, body: c.body, headers: c.headers });
      assert.equal(res.status, c.status, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.equal(res.json.status, c.status);
      assert.equal(typeof res.json.title, "string");
      assert.equal(typeof res.json.detail, "string");
      assert.equal(res.json.requestId, res.headers.get("x-request-id"));
      if (c.fields)
        assert.deepEqual(
          res.json.errors.map((e: { in: string; pointer: string }) => `${e.in}:${e.pointer}`).sort(),
          [...c.fields].sort(),
        );
      if (c.detail) assert.match(res.json.detail, c.detail);
      assert.equal(await count(), before, "nothing stored");
    });
  }

  it("a body over the limit → 413, nothing stored", async () => {
    const before = await count();
    const res = await call(`${s.url}/customers`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ ...ada, lastName: "x".repeat(5000) }),
    });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.match(res.json.detail, /4096 bytes/);
    assert.equal(await count(), before);
  });

  it("after all that, a good request still works", async () => {
    const res = await call(`${s.url}/customers`, { method: "POST", json: ada });
    assert.equal(res.status, 201);
  });
});

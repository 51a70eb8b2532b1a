// SQLite that cannot store (SQLite pass only): a full disk, made portably with `PRAGMA max_page_count` (SQLite
// answers SQLITE_FULL exactly as for a full device), gives 503 problem+json with Retry-After over REST and
// SERVICE_UNAVAILABLE over GraphQL — never a 500 — while reads go on; with room again, writes succeed and every
// acknowledged one is there.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { testDatabaseKind } from "../support/database.js";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";

(testDatabaseKind() === "sqlite" ? describe : describe.skip)("SQLite: a full disk", () => {
  let s: TestServer;
  beforeEach(async () => (s = await startServer()));
  afterEach(() => s.close());

  const pragma = async (statement: string) =>
    (await sql.raw(`pragma ${statement}`).execute(s.store.db)).rows[0] as Record<string, number>;

  it("writes answer 503 + Retry-After (REST) and SERVICE_UNAVAILABLE (GraphQL); reads go on; room again → writes succeed", async () => {
    const { page_count } = await pragma("page_count");
    await pragma(`max_page_count = ${page_count}`);
    const acknowledged: string[] = [];
    let full: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 1_000 && !full; i++) {
      const res = await call(`${s.url}/customers`, {
        method: "POST",
        json: { ...ada, email: `full-${i}@example.com` },
      });
      if (res.status === 201) acknowledged.push(res.json.customerId);
      else full = res;
    }
    assert.ok(full, "the database filled up");
    assert.equal(full.status, 503, full.text);
    assert.equal(full.headers.get("content-type"), "application/problem+json");
    assert.match(full.headers.get("retry-after") ?? "", /^\d+$/);
    assert.equal(full.json.type, "urn:twinspec:problem:unavailable");
    assert.doesNotMatch(full.text, /SQLITE|disk|page/i, "what the database said stays in the log");

    const mutation = await gql(
      s.url,
      `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`,
      { i: { ...ada, email: "full-gql@example.com" } },
    );
    assert.equal(mutation.json.errors[0].extensions.code, "SERVICE_UNAVAILABLE", mutation.text);
    assert.match(mutation.headers.get("retry-after") ?? "", /^\d+$/);
    assert.equal((await call(`${s.url}/customers/${acknowledged[0]}`)).status, 200, "reads need no room");

    await pragma(`max_page_count = ${page_count * 100}`);
    const after = await call(`${s.url}/customers`, {
      method: "POST",
      json: { ...ada, email: "room-again@example.com" },
    });
    assert.equal(after.status, 201, after.text);
    for (const id of [...acknowledged, after.json.customerId])
      assert.equal((await call(`${s.url}/customers/${id}`)).status, 200, id);
  });
});

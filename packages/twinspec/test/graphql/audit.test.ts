// GraphQL over HTTP conformance: graphql-http's own audit suite against the real server, one test per audit.
// Every MUST and SHOULD passes (a failing MAY is reported as a notice and tolerated).
import assert from "node:assert/strict";
import { serverAudits } from "graphql-http";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";

describe("GraphQL over HTTP (graphql-http serverAudits)", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  for (const audit of serverAudits({ url: () => `${s.url}/graphql` })) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      if (result.status === "ok" || (audit.name.startsWith("MAY") && result.status === "notice")) return;
      assert.fail(`${result.status}: ${result.reason}`);
    });
  }

  it("queries over GET; mutations over GET → 405 + Allow: POST", async () => {
    const q = await call(`${s.url}/graphql?query=${encodeURIComponent("{ authors { authorId } }")}`, {
      headers: { accept: "application/graphql-response+json" },
    });
    assert.equal(q.status, 200);
    assert.deepEqual(q.json, { data: { authors: [] } });
    const m = await call(`${s.url}/graphql?query=${encodeURIComponent(`mutation { deleteNote(noteId: "x") }`)}`, {
      headers: { accept: "application/json" },
    });
    assert.equal(m.status, 405);
    assert.equal(m.headers.get("allow"), "POST");
    // A GraphQL error like any other: JSON, with a code (found by the fuzzer: graphql-http's was text/plain, uncoded).
    assert.equal(m.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(m.json.errors[0].extensions.code, "METHOD_NOT_ALLOWED");
  });

  it("answers application/json and application/graphql-response+json as asked", async () => {
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const res = await call(`${s.url}/graphql`, {
        method: "POST",
        json: { query: "{ __typename }" },
        headers: { accept },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type")!, new RegExp(`^${accept.replace("+", "\\+")}`));
      // a request error: 400 for the new media type, 200 (errors only) for application/json
      const bad = await call(`${s.url}/graphql`, { method: "POST", json: { query: "{ nope }" }, headers: { accept } });
      assert.equal(bad.status, accept === "application/json" ? 200 : 400);
      assert.equal(bad.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
    }
  });

  it("a body over the limit → 413", async () => {
    const small = await startServer({ bodyLimit: 64 });
    try {
      const res = await call(`${small.url}/graphql`, {
        method: "POST",
        json: { query: `{ authors { authorId name createdAt updatedAt notes { noteId } } }` },
      });
      assert.equal(res.status, 413);
    } finally {
      await small.close();
    }
  });

  it("the same mutation over POST works (selected fields only)", async () => {
    const res = await gql(s.url, `mutation($i: CreateAuthorInput!) { createAuthor(input: $i) { name } }`, { i: ada });
    assert.deepEqual(res.json, { data: { createAuthor: { name: ada.name } } });
  });
});

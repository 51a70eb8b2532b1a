// Malformed GraphQL-over-HTTP requests (the shape of the request, before any GraphQL is parsed): 400 with a
// BAD_REQUEST error that names what is wrong — never the masked INTERNAL_SERVER_ERROR — over POST and GET on
// /graphql, and on graphql-sse's /graphql/stream, which takes the same request shape.
import assert from "node:assert/strict";
import { call, startServer, type TestServer } from "../support/server.js";

const cases: [string, { body: string; message: RegExp }][] = [
  ["a null body", { body: "null", message: /must be a JSON object/ }],
  ["an array body", { body: "[]", message: /must be a JSON object/ }],
  ["an empty body", { body: "", message: /has no body/ }],
  ["malformed JSON", { body: '{"query": ', message: /not valid JSON/ }],
  ["no query", { body: "{}", message: /has no `query`/ }],
  ["a query that is not a string", { body: '{"query": 1}', message: /`query` must be a string .*got a number/ }],
  [
    "variables that are not an object",
    { body: '{"query": "{ __typename }", "variables": "x"}', message: /`variables` must be an object .*got a string/ },
  ],
  [
    "variables that are an array",
    { body: '{"query": "{ __typename }", "variables": []}', message: /`variables` must be an object .*got an array/ },
  ],
  [
    "an operationName that is not a string",
    {
      body: '{"query": "{ __typename }", "operationName": 1}',
      message: /`operationName` must be a string .*got a number/,
    },
  ],
  [
    "extensions that are not an object",
    {
      body: '{"query": "{ __typename }", "extensions": [1]}',
      message: /`extensions` must be an object .*got an array/,
    },
  ],
];

describe("malformed GraphQL-over-HTTP requests", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  for (const [name, { body, message }] of cases) {
    it(`${name} → 400 BAD_REQUEST saying what is wrong`, async () => {
      for (const accept of ["application/graphql-response+json", "application/json"]) {
        const res = await call(`${s.url}/graphql`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", accept },
        });
        assert.equal(res.status, 400, accept);
        assert.match(res.headers.get("content-type")!, new RegExp(`^${accept.replace("+", "\\+")}`));
        assert.equal(res.json.errors.length, 1);
        assert.equal(res.json.errors[0].extensions.code, "BAD_REQUEST");
        assert.match(res.json.errors[0].message, message);
      }
      const sse = await call(`${s.url}/graphql/stream`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        signal: AbortSignal.timeout(5_000),
      });
      assert.equal(sse.status, 400);
      assert.equal(sse.json.errors[0].extensions.code, "BAD_REQUEST");
      assert.match(sse.json.errors[0].message, message);
    });
  }

  it("GET with variables that are not JSON → 400 BAD_REQUEST", async () => {
    const res = await call(`${s.url}/graphql?query=${encodeURIComponent("{ __typename }")}&variables=%7Bx`, {
      headers: { accept: "application/graphql-response+json" },
    });
    assert.equal(res.status, 400);
    assert.equal(res.json.errors[0].extensions.code, "BAD_REQUEST");
    assert.match(res.json.errors[0].message, /The URL's `variables` parameter is not valid JSON/);
  });

  it("a well-formed request still runs on both", async () => {
    const body = JSON.stringify({ query: "{ __typename }" });
    const res = await call(`${s.url}/graphql`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    assert.deepEqual(res.json, { data: { __typename: "Query" } });
    const sse = await call(`${s.url}/graphql/stream`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", accept: "text/event-stream" },
    });
    assert.equal(sse.status, 200);
    assert.match(sse.text, /event: next\ndata: \{"data":\{"__typename":"Query"\}\}/);
  });
});

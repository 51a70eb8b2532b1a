// The one GraphQL-over-HTTP handler (src/graphql/handler.ts) over real HTTP: GET and POST answer alike through it,
// with the media type the Accept header negotiates and the status GraphQL over HTTP asks for each kind of answer;
// what it refuses before any GraphQL runs (405, 406, 415, subscriptions over POST); and parsed bodies it keeps
// (by text) that never carry one caller's answer to another.
import assert from "node:assert/strict";
import { acceptedMediaType } from "../../src/graphql/handler.js";
import { ADMIN_TOKEN, token } from "../support/auth.js";
import { call, seedAuthor, startServer, type TestServer } from "../support/server.js";

const GRAPHQL_RESPONSE = "application/graphql-response+json; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";

describe("GraphQL over HTTP: the one handler", () => {
  let s: TestServer;
  let authorId: string;
  let noteId: string;
  before(async () => {
    s = await startServer();
    const author = await seedAuthor(s, 1, { notes: 2 });
    authorId = author.authorId;
    noteId = author.notes[0].noteId;
  });
  after(() => s.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    call(`${s.url}/graphql`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    });
  const get = (params: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const search = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    );
    return call(`${s.url}/graphql?${search}`, { headers });
  };
  const masked = (text: string) => text.replace(/request id [\w-]+/g, "request id …");

  /** Each request, its kind of answer: data alone, data beside errors, or a request error (no data). */
  const cases: [string, () => Record<string, unknown>, "data" | "partial" | "request error"][] = [
    [
      "a query",
      () => ({
        query: `query($id: ID!) { author(authorId: $id) { authorId name notes { noteId title } } }`,
        variables: { id: authorId },
      }),
      "data",
    ],
    [
      "a named operation among several",
      () => ({ query: `query A { __typename } query B { authors(first: 1) { authorId } }`, operationName: "B" }),
      "data",
    ],
    [
      "a field that fails",
      () => ({ query: `{ a: author(authorId: "aut_nobody") { authorId } b: __typename }` }),
      "partial",
    ],
    [
      "a variable of the wrong type",
      () => ({ query: `query($n: Int!) { authors(first: $n) { authorId } }`, variables: { n: "five" } }),
      "request error",
    ],
    [
      "a missing variable",
      () => ({ query: `query($id: ID!) { author(authorId: $id) { authorId } }` }),
      "request error",
    ],
    ["a document that does not validate", () => ({ query: `{ nope }` }), "request error"],
    ["a document that does not parse", () => ({ query: `{ authors {` }), "request error"],
    [
      "an operation name the document lacks",
      () => ({ query: `query A { __typename }`, operationName: "B" }),
      "request error",
    ],
  ];
  const accepts: [string, string][] = [
    ["application/graphql-response+json", GRAPHQL_RESPONSE],
    ["application/json", JSON_TYPE],
    ["application/graphql-response+json, application/json;q=0.9", GRAPHQL_RESPONSE],
    ["*/*", JSON_TYPE],
    ["", JSON_TYPE],
  ];
  for (const [accept, type] of accepts) {
    for (const [name, body, kind] of cases) {
      it(`${name}, Accept: ${accept || "(none)"} → ${kind}; the same over GET and POST`, async () => {
        const headers = { ...(accept ? { accept } : {}), authorization: `Bearer ${ADMIN_TOKEN}` };
        const [byPost, byGet] = await Promise.all([post(body(), headers), get(body(), headers)]);
        const status = kind === "request error" && type === GRAPHQL_RESPONSE ? 400 : 200;
        assert.deepEqual([byPost.status, byPost.headers.get("content-type")], [status, type], byPost.text);
        assert.equal("data" in byPost.json, kind !== "request error", byPost.text);
        assert.equal("errors" in byPost.json, kind !== "data", byPost.text);
        for (const e of byPost.json.errors ?? []) assert.match(e.extensions?.code ?? "", /^[A-Z_]+$/, byPost.text);
        assert.deepEqual(
          [byGet.status, byGet.headers.get("content-type"), masked(byGet.text)],
          [byPost.status, type, masked(byPost.text)],
        );
      });
    }
  }

  it("a mutation over POST runs; its invalid input is a field error beside data (200)", async () => {
    const res = await post(
      { query: `mutation { updateNote(noteId: "${noteId}", input: { title: "" }) { noteId } }` },
      { accept: "application/graphql-response+json" },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.errors[0].extensions.code, "BAD_USER_INPUT");
  });

  it("a subscription over POST is refused as a request error (it streams over /graphql/stream and WebSocket)", async () => {
    const res = await post(
      { query: `subscription($id: ID!) { noteChanged(authorId: $id) { noteId } }`, variables: { id: authorId } },
      { accept: "application/graphql-response+json" },
    );
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(
      res.json.errors.map((e: { message: string }) => e.message),
      ["Subscriptions are not supported"],
    );
    assert.equal(res.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
  });

  it("no acceptable media type → 406 naming both; another method → 405 Allow: GET, POST; another body type → 415; each says what to send", async () => {
    const refused = await post({ query: "{ __typename }" }, { accept: "text/plain" });
    assert.equal(refused.status, 406);
    assert.equal(refused.headers.get("accept"), `${GRAPHQL_RESPONSE}, ${JSON_TYPE}`);
    assert.equal(refused.json.errors[0].extensions.code, "NOT_ACCEPTABLE");
    assert.match(refused.json.errors[0].message, /application\/graphql-response\+json/);
    const put = await call(`${s.url}/graphql`, {
      method: "PUT",
      body: "{}",
      headers: { "content-type": "application/json", accept: "application/json" },
    });
    assert.deepEqual(
      [put.status, put.headers.get("allow"), put.json.errors[0].extensions.code],
      [405, "GET, POST", "METHOD_NOT_ALLOWED"],
    );
    for (const type of ["text/plain", "application/json; charset=utf-16", "application/graphql"]) {
      const res = await call(`${s.url}/graphql`, {
        method: "POST",
        body: '{"query": "{ __typename }"}',
        headers: { "content-type": type, accept: GRAPHQL_RESPONSE },
      });
      assert.equal(res.status, 415, type);
      assert.equal(res.headers.get("content-type"), GRAPHQL_RESPONSE);
      assert.equal(res.json.errors[0].extensions.code, "UNSUPPORTED_MEDIA_TYPE", res.text);
      assert.match(res.json.errors[0].message, /Content-Type: application\/json/);
    }
    const spaced = await call(`${s.url}/graphql`, {
      method: "POST",
      body: '{"query": "{ __typename }"}',
      headers: { "content-type": "Application/JSON ; Charset=UTF-8" },
    });
    assert.deepEqual(spaced.json, { data: { __typename: "Query" } });
  });

  it("the same body from different callers: each gets its own answer (parsed bodies are kept, answers are not)", async () => {
    const body = { query: `{ authors(first: 1) { authorId } }` };
    const admin = await post(body, { authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.deepEqual(admin.json, { data: { authors: [{ authorId }] } });
    const anonymous = await call(`${s.url}/graphql`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
      anonymous: true,
    });
    assert.equal(anonymous.json.errors[0].extensions.code, "UNAUTHENTICATED", anonymous.text);
    const unscoped = await post(body, { authorization: `Bearer ${await token("someone", "notes:read")}` });
    assert.equal(unscoped.json.errors[0].extensions.code, "FORBIDDEN", unscoped.text);
    assert.deepEqual((await post(body, { authorization: `Bearer ${ADMIN_TOKEN}` })).json, admin.json);
  });

  it("negotiates like graphql-http", () => {
    assert.equal(acceptedMediaType(undefined), "application/json");
    assert.equal(
      acceptedMediaType("application/graphql-response+json, application/json;q=0.9"),
      "application/graphql-response+json",
    );
    assert.equal(acceptedMediaType("application/json, application/graphql-response+json"), "application/json");
    assert.equal(acceptedMediaType("application/json; charset=utf-8"), "application/json");
    assert.equal(acceptedMediaType("application/json; charset=latin1"), null);
    assert.equal(acceptedMediaType("text/html"), null);
  });
});

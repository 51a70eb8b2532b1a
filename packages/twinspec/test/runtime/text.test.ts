// U+0000 in what a client sends (runtime/text.ts) is refused as bad input on both transports and both databases —
// PostgreSQL's text cannot hold it — before any of it reaches a query: in a path parameter (even one the ownership
// rule looks up first), a query parameter, a JSON body, GraphQL variables and a GraphQL string literal. A JSON
// string holding a backslash followed by "u0000" is no U+0000, and is taken as it is.
import assert from "node:assert/strict";
import { token } from "../support/auth.js";
import { metric } from "../support/metrics.js";
import { call, gql, newAuthor, startServer, type TestServer } from "../support/server.js";

describe("U+0000 in a request is bad input, never a query", () => {
  let s: TestServer;
  let member = "";
  before(async () => {
    s = await startServer({ quiet: true });
    // Not an admin: its reads of a note are decided by the note's owner, looked up before the request is validated.
    member = await token("aut_someone", "notes:read notes:write authors:read authors:write");
  });
  after(() => s.close());

  const pointers = (res: { json: { errors?: { in: string; pointer: string }[] } }) =>
    (res.json.errors ?? []).map((e) => `${e.in}:${e.pointer}`);

  it("a path parameter, the id the ownership rule looks up: 400 naming it, nothing queried", async () => {
    const before = await metric(s, "db_queries_total");
    const res = await call(`${s.url}/notes/a%00b`, { headers: { authorization: `Bearer ${member}` } });
    assert.equal(res.status, 400, res.text);
    // Its pattern names it here; an id of no pattern would be named for its U+0000.
    assert.deepEqual(pointers(res), ["path:/noteId"]);
    assert.equal(await metric(s, "db_queries_total"), before, "nothing queried");
  });

  it("a query parameter: 400 naming it", async () => {
    const res = await call(`${s.url}/notes?cursor=a%00b`);
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(pointers(res), ["query:/cursor"]);
    assert.match(res.json.errors[0].message, /U\+0000/);
  });

  it("a JSON body: 400; a backslash and u0000 in a string is text like any other", async () => {
    const refused = await call(`${s.url}/authors`, { method: "POST", json: { name: "Ada\u0000" } });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.json.detail, /U\+0000/);
    const taken = await call(`${s.url}/authors`, { method: "POST", json: { name: "Ada\\u0000" } });
    assert.equal(taken.status, 201, taken.text);
    assert.equal(taken.json.name, "Ada\\u0000");
  });

  it("GraphQL: in variables or in a string literal, BAD_USER_INPUT before anything runs", async () => {
    const { authorId } = await newAuthor(s.url);
    const before = await metric(s, "db_queries_total");
    for (const [query, variables] of [
      ["query ($id: ID!) { note(noteId: $id) { noteId } }", { id: "a\u0000b" }],
      ['{ note(noteId: "a\\u0000b") { noteId } }', undefined],
      [`mutation { createAuthor(input: { name: "Ada\\u0000" }) { authorId } }`, undefined],
    ] as const) {
      const res = await gql(s.url, query, variables, { token: member });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.data, undefined, res.text);
      assert.deepEqual(
        res.json.errors.map((e: { extensions: { code: string } }) => e.extensions.code),
        ["BAD_USER_INPUT"],
      );
      assert.match(res.json.errors[0].message, /U\+0000/);
    }
    assert.equal(await metric(s, "db_queries_total"), before, "nothing queried");
    // The author is still readable by its id: only the U+0000 was refused.
    const read = await gql(s.url, "query ($id: ID!) { author(authorId: $id) { authorId } }", { id: authorId });
    assert.equal(read.json.data.author.authorId, authorId, read.text);
  });
});

// fast.ts answers the common GraphQL-over-HTTP request (a JSON POST with its query text) itself: for every such
// request it must answer exactly what graphql-http answers. The same request with `"extensions": {}` (which
// graphql-http accepts and the fast path leaves alone) goes the general way; both answers are compared.
import assert from "node:assert/strict";
import { acceptedMediaType } from "../../src/graphql/fast.js";
import { ADMIN_TOKEN, token } from "../support/auth.js";
import { call, seedAuthor, startServer, type TestServer } from "../support/server.js";

describe("GraphQL over HTTP: the common case answered directly, as graphql-http would", () => {
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

  const both = async (body: Record<string, unknown>, headers: Record<string, string>) => {
    const send = (b: Record<string, unknown>) => call(`${s.url}/graphql`, { method: "POST", body: JSON.stringify(b), headers: { "content-type": "application/json", ...headers } });
    const [fast, general] = await Promise.all([send(body), send({ ...body, extensions: {} })]);
    const strip = (r: Awaited<ReturnType<typeof send>>) => [r.status, r.headers.get("content-type"), r.text.replace(/request id [\w-]+/g, "request id …")];
    assert.deepEqual(strip(fast), strip(general));
    return fast;
  };

  const cases: [string, () => Record<string, unknown>][] = [
    ["a query", () => ({ query: `query($id: ID!) { author(authorId: $id) { authorId name notes { noteId title } } }`, variables: { id: authorId } })],
    ["a named operation among several", () => ({ query: `query A { __typename } query B { authors(first: 1) { authorId } }`, operationName: "B" })],
    ["a field that fails (data beside errors)", () => ({ query: `{ a: author(authorId: "aut_nobody") { authorId } b: __typename }` })],
    ["a variable of the wrong type (no data)", () => ({ query: `query($id: ID!) { author(authorId: $id) { authorId } }`, variables: { id: 5 } })],
    ["a missing variable", () => ({ query: `query($id: ID!) { author(authorId: $id) { authorId } }` })],
    ["invalid input of a mutation", () => ({ query: `mutation { updateNote(noteId: "${noteId}", input: { title: "" }) { noteId } }` })],
  ];
  for (const accept of ["application/graphql-response+json", "application/json", "*/*", ""]) {
    for (const [name, body] of cases) {
      it(`${name}, Accept: ${accept || "(none)"}`, async () => {
        await both(body(), { ...(accept ? { accept } : {}), authorization: `Bearer ${ADMIN_TOKEN}` });
      });
    }
  }

  it("an anonymous caller and a caller without the scope get the same errors either way", async () => {
    const body = { query: `{ authors(first: 1) { authorId } }` };
    await both(body, {});
    await both(body, { authorization: `Bearer ${await token("someone", "notes:read")}` });
  });

  it("negotiates like graphql-http", () => {
    assert.equal(acceptedMediaType(undefined), "application/json");
    assert.equal(acceptedMediaType("application/graphql-response+json, application/json;q=0.9"), "application/graphql-response+json");
    assert.equal(acceptedMediaType("application/json; charset=utf-8"), "application/json");
    assert.equal(acceptedMediaType("text/html"), null);
  });
});

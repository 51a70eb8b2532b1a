// Compiled execution (graphql-jit) answers exactly as graphql-js does: same data, same errors, same order.
import assert from "node:assert/strict";
import { buildSchema, execute, getIntrospectionQuery, GraphQLScalarType, parse } from "graphql";
import { createExecute } from "../../src/graphql/execute.js";
import { seedAuthor, startServer, type TestServer } from "../support/server.js";

describe("graphql-jit gives the results of graphql-js", () => {
  let s: TestServer;
  let ids: { author: string; note: string };
  before(async () => {
    s = await startServer({ jobs: { pollMs: 3_600_000 } });
    for (let n = 0; n < 5; n++) await seedAuthor(s, n, { notes: 2 });
    const a = (await s.app.services.authors.list({ limit: 1 })).items[0];
    const notes = await s.app.services.notes.listByParents([a.authorId]);
    ids = { author: a.authorId, note: notes.get(a.authorId)![0].noteId };
    await s.app.services.notes.update(ids.note, { title: "Changed" });
  });
  after(() => s.close());

  const cases: [string, string, (ids: Record<string, string>) => Record<string, unknown>][] = [
    ["Q1", `query($id: ID!) { author(authorId: $id) { authorId name createdAt } }`, (i) => ({ id: i.author })],
    ["Q2", `{ authors(first: 50) { authorId name notes { noteId title } } }`, () => ({})],
    [
      "fragments, aliases, nested relationships, scalars",
      `query($id: ID!, $n: ID!) { a: author(authorId: $id) { ...A } n: note(noteId: $n) { title body createdAt author { ...A } } __typename }
       fragment A on Author { authorId name updatedAt notes { noteId title author { name } } }`,
      (i) => ({ id: i.author, n: i.note }),
    ],
    [
      "partial results with coded errors",
      `query($n: ID!) { a: note(noteId: $n) { noteId } b: note(noteId: "not_none") { noteId } c: author(authorId: "aut_none") { authorId } }`,
      (i) => ({ n: i.note }),
    ],
    ["bad argument", `{ authors(after: "aut_none") { authorId } }`, () => ({})],
    [
      "variable coercion error",
      `query($id: ID!) { author(authorId: $id) { authorId } }`,
      () => ({ id: { not: "an id" } }),
    ],
    ["failing mutation", `mutation { deleteNote(noteId: "not_none") }`, () => ({})],
    ["introspection", getIntrospectionQuery(), () => ({})],
  ];

  for (const [name, query, variables] of cases) {
    it(name, async () => {
      const { schema, context } = runtime(s);
      const document = parse(query);
      const args = (requestId: string) => ({
        schema,
        document,
        variableValues: variables(ids),
        contextValue: context({ requestId, principal: ADMIN }),
      });
      const viaJs = await execute(args("r1"));
      const compiled = createExecute(schema);
      const viaJit = await compiled(args("r1"));
      // The compiled serializer (data-only results of documents it can describe) writes what JSON.stringify writes.
      assert.equal(compiled.serialize(document, undefined, viaJit), JSON.stringify(viaJit));
      // Sibling fields resolve concurrently (on PostgreSQL their errors arrive in completion order): compare errors as a set.
      const normal = (r: unknown) => {
        const plain = JSON.parse(JSON.stringify(r)) as { errors?: unknown[] };
        plain.errors?.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        return plain;
      };
      assert.deepEqual(normal(viaJit), normal(viaJs));
      if (name.startsWith("Q")) assert.equal(viaJs.errors, undefined);
    });
  }
});

/** An admin caller, as the auth layer would hand it over. */
const ADMIN = { subject: "test-admin", scopes: new Set(["admin"]), expiresAt: Date.now() / 1000 + 3600 };

/** The app's GraphQL runtime, as the transports use it. */
const runtime = (s: TestServer) => s.app.graphql;

describe("the compiled serializer writes what JSON.stringify writes", () => {
  const schema = buildSchema(`
    scalar Stamp
    enum Tone { LOUD QUIET }
    type Item { id: ID! n: Int f: Float ok: Boolean! tone: Tone label: String! tags: [String!]! at: Stamp next: Item }
    type Num { v: Int }
    type Text { v: String }
    union Either = Num | Text
    type Query { items: [Item]! item(id: ID!): Item pick(kind: String!): Either }
  `);
  // Strings that need escaping, other scripts, a lone surrogate, long ones: each encoder has its own path for them.
  const texts = [
    "plain",
    'quo"te',
    "back\\slash",
    "tab\tnew\nline",
    "\u0000\u001f",
    "caf\u00e9 \u20ac \u{1f600}",
    "\ud800 lone",
    "\u2028",
    "x".repeat(50),
    `${"y".repeat(45)}"`,
    "z".repeat(6_000),
  ];
  const items = texts.map((label, i) => ({
    id: i % 2 ? i : `item-${i}`,
    n: i % 3 ? -i * 7 : null,
    f: i / 3,
    ok: i % 2 === 0,
    tone: i % 2 ? "LOUD" : "QUIET",
    label,
    tags: [label, ""],
    at: new Date(Date.UTC(2026, 0, i + 1)),
    next: null as object | null,
  }));
  items.forEach((item, i) => (item.next = items[i + 1] ?? null));
  (schema.getType("Stamp") as GraphQLScalarType).serialize = (value) => (value as Date).toISOString();
  (schema.getType("Either") as unknown as { resolveType: (value: { kind: string }) => string }).resolveType = (value) =>
    value.kind;
  const fields = schema.getQueryType()!.getFields();
  fields.item.resolve = (_, { id }) => items.find((item) => String(item.id) === id) ?? null;
  fields.pick.resolve = (_, { kind }) => (kind === "Num" ? { kind, v: 42 } : { kind, v: "42" });
  const rootValue = { items: [...items, null] };

  const run = async (query: string, variableValues?: Record<string, unknown>) => {
    const compiled = createExecute(schema);
    const document = parse(query);
    const result = await compiled({ schema, document, rootValue, variableValues });
    return { written: compiled.serialize(document, undefined, result), expected: JSON.stringify(result), result };
  };

  it("scalars, enums, nulls, nested objects, aliases and __typename", async () => {
    const selection = "__typename id n f ok tone label next { id label next { n } }";
    const query = `{ ${items.map((item, i) => `i${i}: item(id: ${JSON.stringify(String(item.id))}) { ${selection} }`).join(" ")} none: item(id: "nope") { id } }`;
    const { written, expected, result } = await run(query);
    assert.equal(result.errors, undefined);
    assert.equal(written, expected);
  });

  it("lists, a custom scalar, and an interface or union's fields are written by JSON.stringify", async () => {
    // Lists: V8's JSON.stringify wrote long lists of objects (50 parents × 10 children) faster than the compiled serializer.
    const lists = await run(`{ items { id label tags } }`);
    assert.equal(lists.written, lists.expected);
    // graphql-jit knows the built-in scalars only.
    const custom = await run(`{ item(id: "item-0") { id at } }`);
    assert.equal(custom.written, custom.expected);
    // One response name, an Int on one possible type and a String on the other: a merged description would write one of them wrongly.
    const union = await run(
      `{ a: pick(kind: "Num") { ... on Num { v } ... on Text { v } } b: pick(kind: "Text") { ... on Num { v } ... on Text { v } } }`,
    );
    assert.deepEqual(JSON.parse(union.written), { data: { a: { v: 42 }, b: { v: "42" } } });
    assert.equal(union.written, union.expected);
  });

  it("a result with errors is written whole", async () => {
    const { written, expected, result } = await run(`query($id: ID!) { item(id: $id) { id n } }`, {
      id: { not: "an id" },
    });
    assert.ok(result.errors?.length);
    assert.equal(written, expected);
  });
});

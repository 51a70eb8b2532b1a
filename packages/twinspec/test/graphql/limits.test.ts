// Limits checked before execution (depth, cost, aliases, list sizes) and the introspection switch.
import assert from "node:assert/strict";
import { getIntrospectionQuery } from "graphql";
import { configFromEnv } from "../../src/config.js";
import { gql, startServer, type TestServer } from "../support/server.js";
import { metric } from "../support/metrics.js";

/** `levels` fields under Author, alternating notes / author, then a leaf. */
const chain = (levels: number) => {
  let q = levels % 2 === 1 ? "noteId" : "authorId";
  for (let i = levels - 1; i >= 0; i--) q = `${i % 2 === 0 ? "notes" : "author"} { ${q} }`;
  return q;
};
/** authors (1) + chain + leaf: depth levels + 2 */
const nest = (levels: number) => `{ authors(first: 1) { ${chain(levels)} } }`;

describe("GraphQL limits", () => {
  let s: TestServer;
  // A generous cost limit here so depth can be tested alone; the cost test has its own server.
  before(async () => (s = await startServer({ graphql: { maxCost: 1_000_000 }, quiet: true })));
  after(() => s.close());

  const rejected = async (query: string, code: string, variables?: Record<string, unknown>, on = s) => {
    const before = await metric(on, "db_queries_total");
    const res = await gql(on.url, query, variables);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.data, undefined);
    assert.equal(res.json.errors[0].extensions.code, code, res.text);
    assert.equal(await metric(on, "db_queries_total"), before, "nothing executed");
    return res.json.errors[0];
  };

  it("depth: 10 levels pass, 11 are refused with DEPTH_LIMIT_EXCEEDED", async () => {
    const ok = await gql(s.url, nest(8));
    assert.equal(ok.json.errors, undefined, ok.text);
    const error = await rejected(nest(9), "DEPTH_LIMIT_EXCEEDED");
    assert.equal(error.extensions.limit, 10);
    assert.equal(error.extensions.depth, 11);
    assert.match(error.message, /11 levels deep; at most 10/);
  });

  it("depth follows fragments; introspection is exempt", async () => {
    await rejected(
      `{ ...A } fragment A on Query { authors(first: 1) { ...B } } fragment B on Author { ${chain(9)} }`,
      "DEPTH_LIMIT_EXCEEDED",
    );
    const intro = await gql(s.url, getIntrospectionQuery());
    assert.equal(intro.json.errors, undefined);
    assert.ok(intro.json.data.__schema.types.length > 10);
  });

  it("cost: list fields weigh by first (literal or variable); over the limit → COST_LIMIT_EXCEEDED", async () => {
    const query = `query($n: Int) { authors(first: $n) { notes { author { notes { noteId } } } } }`;
    const cheap = await startServer({ graphql: { maxCost: 500 }, quiet: true });
    try {
      // 1 + n × (1 + 10 × (1 + 1 × 1)) = 1 + 21n
      assert.equal((await gql(cheap.url, query, { n: 20 })).json.errors, undefined);
      const error = await rejected(query, "COST_LIMIT_EXCEEDED", { n: 30 }, cheap);
      assert.equal(error.extensions.cost, 631);
      assert.equal(error.extensions.limit, 500);
      await rejected(
        `{ authors(first: 30) { notes { author { notes { noteId } } } } }`,
        "COST_LIMIT_EXCEEDED",
        undefined,
        cheap,
      );
      // the default limit is 5000
      assert.equal(configFromEnv({}).graphql.maxCost, 5000);
    } finally {
      await cheap.close();
    }
  });

  it("aliases: more than 30 → ALIAS_LIMIT_EXCEEDED", async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(" ");
    assert.equal((await gql(s.url, `{ ${fields(30)} }`)).json.errors, undefined);
    await rejected(`{ ${fields(31)} }`, "ALIAS_LIMIT_EXCEEDED");
  });

  it("list sizes: first outside 1..100 → BAD_USER_INPUT on argument 'first'", async () => {
    const error = await rejected(`{ authors(first: 101) { authorId } }`, "BAD_USER_INPUT");
    assert.equal(error.extensions.argument, "first");
    await rejected(`query($n: Int) { authors(first: $n) { authorId } }`, "BAD_USER_INPUT", { n: 0 });
  });

  it("document and variables size: over GRAPHQL_MAX_DOCUMENT_BYTES / GRAPHQL_MAX_VARIABLES_BYTES → coded errors, before parsing", async () => {
    assert.deepEqual(
      [configFromEnv({}).graphql.maxDocumentBytes, configFromEnv({}).graphql.maxVariablesBytes],
      [65536, 65536],
    );
    assert.equal(configFromEnv({ GRAPHQL_MAX_DOCUMENT_BYTES: "100" }).graphql.maxDocumentBytes, 100);
    const small = await startServer({ graphql: { maxDocumentBytes: 200, maxVariablesBytes: 100 }, quiet: true });
    try {
      // 200 bytes pass; 201 (a comment: parsing never sees it) do not. Multi-byte characters count as bytes.
      const padded = (bytes: number) => `{ __typename }#${"x".repeat(bytes - 15)}`;
      assert.equal((await gql(small.url, padded(200))).json.errors, undefined);
      const error = await rejected(padded(201), "DOCUMENT_SIZE_LIMIT_EXCEEDED", undefined, small);
      assert.deepEqual([error.extensions.size, error.extensions.limit], [201, 200]);
      await rejected(`{ __typename }#${"é".repeat(93)}`, "DOCUMENT_SIZE_LIMIT_EXCEEDED", undefined, small);
      const query = `query($after: String) { authors(after: $after) { authorId } }`;
      const variables = (bytes: number) => ({ after: "y".repeat(bytes - 12) }); // {"after":"…"} is 12 bytes + the value
      // 100 bytes pass the size check (and reach the resolver, which finds no such cursor)
      assert.equal((await gql(small.url, query, variables(100))).json.errors[0].extensions.code, "BAD_USER_INPUT");
      const tooMany = await rejected(query, "VARIABLES_SIZE_LIMIT_EXCEEDED", variables(101), small);
      assert.match(tooMany.message, /101 bytes as JSON; at most 100/);
    } finally {
      await small.close();
    }
  });

  /** Fragments F0 … F(n-1) on Query, each spreading the next twice: 2^n spreads if each were followed again. */
  const fanOut = (n: number, field = "__typename") =>
    `{ ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { ${field}${i + 1 < n ? ` ...F${i + 1} ...F${i + 1}` : ""} }`).join(" ")}`;

  it("fragments that spread each other twice, hundreds deep, are measured once each: answered, not frozen", async () => {
    const wide = await startServer({ graphql: { maxTokens: 1_000_000, maxDepth: 1000 }, quiet: true });
    try {
      const res = await gql(wide.url, fanOut(400));
      assert.deepEqual(res.json, { data: { __typename: "Query" } }, res.text);
      // Each fragment's depth and cost are taken once, whatever the number of paths to it.
      const deep = await gql(wide.url, fanOut(60, "authors(first: 1) { authorId }"));
      assert.equal(deep.json.errors, undefined, deep.text);
      const costly = await gql(
        wide.url,
        `{ ...F0 } ${Array.from({ length: 60 }, (_, i) => `fragment F${i} on Query { authors(first: 2) { authorId }${i + 1 < 60 ? ` a: author(authorId: "x") { ...G${i} } b: author(authorId: "y") { ...G${i} }` : ""} } fragment G${i} on Author { notes { author { authorId } } }`).join(" ")}`,
      );
      assert.equal(costly.status, 400, costly.text);
    } finally {
      await wide.close();
    }
  });

  it("tokens: a document of more than 1000 → TOKEN_LIMIT_EXCEEDED, before validation", async () => {
    // { __typename @include(if: [true …]) }: 11 tokens and one a value
    const tokens = (n: number) => `{ __typename @include(if: [${"true ".repeat(n - 11)}]) }`;
    assert.equal(
      (await gql(s.url, tokens(1000))).json.errors[0].extensions.code,
      "GRAPHQL_VALIDATION_FAILED",
      "parsed (and found to be no Boolean)",
    );
    const error = await rejected(tokens(1001), "TOKEN_LIMIT_EXCEEDED");
    assert.equal(error.extensions.limit, 1000);
    assert.equal(configFromEnv({ GRAPHQL_MAX_TOKENS: "5000" }).graphql.maxTokens, 5000);
  });

  it("directives: more than 50 in a document → DIRECTIVE_LIMIT_EXCEEDED", async () => {
    const applied = (n: number) => `{ ${"__typename @include(if: true) ".repeat(n)}}`;
    assert.equal((await gql(s.url, applied(50))).json.errors, undefined);
    const error = await rejected(applied(51), "DIRECTIVE_LIMIT_EXCEEDED");
    assert.deepEqual([error.extensions.limit, error.extensions.directives], [50, 51]);
  });

  it("variables nested past 64 levels → BAD_USER_INPUT naming the limit, before any other work", async () => {
    const query = "query($v: [String]) { __typename }";
    let v: unknown = [];
    for (let i = 0; i < 62; i++) v = [v];
    // { v: 63 levels } is 64 levels deep.
    assert.equal((await gql(s.url, query, { v })).json.errors?.[0].extensions.code, "BAD_USER_INPUT");
    const error = await rejected(query, "BAD_USER_INPUT", { v: [v] });
    assert.equal(error.extensions.limit, 64);
    assert.match(error.message, /more than 64 levels deep/);
  });

  it("validation has a time budget: past it → VALIDATION_TIMEOUT, and the document is not cached", async () => {
    const { createPreparer } = await import("../../src/graphql/operation.js");
    const prepare = createPreparer(s.app.graphql.schema, { validationTimeoutMs: 0 });
    const query = `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: __typename`).join(" ")} }`;
    const first = prepare(query);
    assert.equal(first.errors?.[0].extensions.code, "VALIDATION_TIMEOUT");
    assert.equal(prepare(query).errors?.[0].extensions.code, "VALIDATION_TIMEOUT", "tried again, not cached");
    assert.equal(configFromEnv({}).graphql.validationTimeoutMs, 1000);
  });

  it("without introspection, no error suggests what the schema has (validation, variables)", async () => {
    const closed = await startServer({ graphql: { introspection: false }, quiet: true });
    try {
      const typo = await gql(closed.url, `{ autor(authorId: "x") { name } }`);
      assert.equal(typo.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
      assert.doesNotMatch(typo.text, /Did you mean/);
      assert.match(typo.json.errors[0].message, /Cannot query field "autor" on type "Query"\.$/);
      const open = await gql(s.url, `{ autor(authorId: "x") { name } }`);
      assert.match(open.text, /Did you mean \\"author\\"/);
    } finally {
      await closed.close();
    }
  });

  it("introspection can be switched off (GRAPHQL_INTROSPECTION=false); __typename still works", async () => {
    assert.equal(configFromEnv({}).graphql.introspection, true);
    assert.equal(configFromEnv({ GRAPHQL_INTROSPECTION: "false" }).graphql.introspection, false);
    const closed = await startServer({ graphql: { introspection: false } });
    try {
      const res = await gql(closed.url, `{ __schema { queryType { name } } }`);
      assert.equal(res.status, 400);
      assert.equal(res.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
      assert.match(res.json.errors[0].message, /introspection/i);
      assert.deepEqual((await gql(closed.url, `{ __typename }`)).json, { data: { __typename: "Query" } });
    } finally {
      await closed.close();
    }
  });
});

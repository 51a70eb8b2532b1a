// The mock server's GraphQL side, walked over every root field of the fixture's schema.graphql: each answers data of
// its type (every field selected, to a few levels), with the arguments it was given echoed; the same @auth, argument
// checks and limits as the real server; subscriptions get a mocked event at every tick.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  getNamedType,
  graphql,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { loadDocument } from "../../src/codegen/load/spec.js";
import { loadTypeDefs } from "../../../twinspec/src/graphql/schema.js";
import { schemaSampler } from "../../src/mock/answers.js";
import { mockSchema } from "../../src/mock/graphql.js";
import { definition } from "../../../twinspec/test/fixture/generated/wiring.js";
import { ADMIN_TOKEN, token } from "../../../twinspec/test/support/auth.js";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { startMockServer, type MockServer } from "../../../twinspec/test/support/mock.js";
import { gql } from "../../../twinspec/test/support/server.js";
import { argumentValues, graphqlSchema as schema, resources } from "../../../twinspec/test/support/spec.js";

const ids = Object.fromEntries(Object.values(resources).map((r) => [r.id, `${r.idPrefix}_mock`]));

/** A selection of every field of `type`, objects to `depth` levels (their leaves only below that). */
function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return "";
  const fields = Object.values(named.getFields()).filter(
    (f) => f.args.every((a) => !isNonNullType(a.type)) && (isLeafType(getNamedType(f.type)) || depth > 0),
  );
  return ` { ${fields.map((f) => `${f.name}${selection(f.type, depth - 1)}`).join(" ")} }`;
}

/** `value` has the shape of `type`: non-null where required, lists as lists, objects with every selected field. */
function shapeErrors(type: GraphQLOutputType, value: unknown, path: string): string[] {
  if (value === null) return isNonNullType(type) ? [`${path} is null`] : [];
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable))
    return Array.isArray(value)
      ? value.flatMap((v, i) => shapeErrors(nullable.ofType, v, `${path}[${i}]`))
      : [`${path} is not a list`];
  if (isObjectType(nullable)) {
    if (typeof value !== "object") return [`${path} is not an object`];
    return Object.entries(value).flatMap(([k, v]) => shapeErrors(nullable.getFields()[k].type, v, `${path}.${k}`));
  }
  return typeof value === "object" ? [`${path} is not a ${nullable}`] : [];
}

const roots = (["Query", "Mutation"] as const).flatMap((root) =>
  Object.values((root === "Query" ? schema.getQueryType() : schema.getMutationType())!.getFields()).map((field) => ({
    root,
    field,
  })),
);

function operation(root: string, field: GraphQLField<unknown, unknown>) {
  const values = argumentValues(root, field, ids);
  const args = field.args.filter((a) => a.name in values);
  const declared = args.map((a) => `$${a.name}: ${a.type}`).join(", ");
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(", ");
  return {
    query: `${root === "Query" ? "query" : "mutation"}${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""}${selection(field.type, 3)} }`,
    variables: values,
  };
}

describe("mock server: GraphQL (every root field of schema.graphql)", () => {
  let s: MockServer;
  before(async () => (s = await startMockServer({ eventIntervalMs: 50 })));
  after(() => s.close());

  for (const { root, field } of roots) {
    it(`${root}.${field.name} answers data of its type, echoing its arguments`, async () => {
      const { query, variables } = operation(root, field);
      const res = await gql(s.url, query, variables);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.errors, undefined, JSON.stringify(res.json.errors));
      const data = res.json.data[field.name];
      assert.notEqual(data, null, `${field.name} answered null`);
      assert.deepEqual(shapeErrors(field.type, data, field.name), []);
      const type = getNamedType(field.type);
      const key = Object.values(resources).find((r) => r.schema === type.name)?.id;
      if (key && key in variables && !isListType(isNonNullType(field.type) ? field.type.ofType : field.type))
        assert.equal(data[key], variables[key], `${key} echoed`);
      if (type.name === "ID") assert.equal(data, Object.values(variables)[0], "the ID argument echoed");
      for (const [name, value] of Object.entries(variables))
        if (isObjectType(type) && name in type.getFields() && name !== key) assert.deepEqual(data[name], value);
    });
  }

  it("answers consistently: the same id, the same object; values from the REST example, where a type pairs with a schema", async () => {
    const query = `{ note(noteId: "not_1") { noteId ownerId title body author { authorId name } } }`;
    const first = await gql(s.url, query);
    assert.deepEqual((await gql(s.url, query)).json, first.json);
    assert.deepEqual(
      first.json.data.note,
      { noteId: "not_1", ownerId: "user_123", title: "Groceries", body: "Milk, eggs, bread", author: null },
      "a nullable field the REST example leaves out is null",
    );
    const author = await gql(s.url, `{ author(authorId: "aut_1") { authorId name } }`);
    assert.deepEqual(author.json.data.author, { authorId: "aut_1", name: "Ada Lovelace" });
    const created = await gql(s.url, `mutation { createAuthor(input: { name: "Grace Hopper" }) { name } }`);
    assert.deepEqual(created.json.data.createAuthor, { name: "Grace Hopper" });
    const updated = await gql(
      s.url,
      `mutation { updateNote(noteId: "not_7", input: { title: "Sunday" }) { noteId title body } }`,
    );
    assert.deepEqual(updated.json.data.updateNote, { noteId: "not_7", title: "Sunday", body: "Milk, eggs, bread" });
  });

  it("a navigation to a resource follows the id its parent carries", async () => {
    // The fixture's notes carry no authorId (Note.author is not followed by id): the mock schema of its schema.graphql
    // with that one field added, as an application's type may carry it.
    const doc = loadDocument(join(FIXTURE, "openapi.yaml"));
    const navigating = mockSchema(
      schemaSampler(doc),
      definition.contract,
      definition.scalars,
      `${loadTypeDefs()}\nextend type Note { authorId: ID! }`,
    );
    const query = `{ note(noteId: "not_1") { noteId authorId author { authorId name } } }`;
    const first = await graphql({ schema: navigating, source: query, contextValue: {} });
    assert.equal(first.errors, undefined, JSON.stringify(first.errors));
    const note = first.data!.note as { authorId: string; author: { authorId: string; name: string } };
    assert.equal(note.author.authorId, note.authorId);
    assert.deepEqual(
      (await graphql({ schema: navigating, source: query, contextValue: {} })).data,
      first.data,
      "the same id, the same object",
    );
  });

  it("authorizes, checks arguments and limits as the real server", async () => {
    const anonymous = await gql(s.url, `{ author(authorId: "aut_1") { authorId } }`, undefined, { token: "" });
    assert.deepEqual([anonymous.json.data.author, anonymous.json.errors[0].extensions.code], [null, "UNAUTHENTICATED"]);
    const reader = await token("aut_1", "authors:read");
    const scoped = await gql(s.url, `{ author(authorId: "aut_1") { authorId notes { noteId } } }`, undefined, {
      token: reader,
    });
    assert.equal(scoped.json.data.author, null, "notes needs notes:read, and Author.notes is non-null");
    assert.deepEqual(
      scoped.json.errors.map((e: { path: string[]; extensions: { code: string } }) => [
        e.path.join("."),
        e.extensions.code,
      ]),
      [["author.notes", "FORBIDDEN"]],
    );
    const everyone = await gql(s.url, `{ authors { authorId } }`, undefined, { token: reader });
    assert.deepEqual(
      everyone.json.errors.map((e: { extensions: { code: string } }) => e.extensions.code),
      ["FORBIDDEN"],
      "every author's data needs admin",
    );
    const own = await gql(s.url, `{ note(noteId: "not_1") { noteId } }`, undefined, {
      token: await token("aut_1", "notes:read"),
    });
    assert.deepEqual(
      own.json,
      { data: { note: { noteId: "not_1" } } },
      "no data says whose a note is: it is the caller's",
    );
    const bad = await gql(s.url, `mutation { updateNote(noteId: "not_1", input: { title: "" }) { noteId } }`);
    assert.equal(bad.json.errors[0].extensions.code, "BAD_USER_INPUT");
    assert.deepEqual(
      bad.json.errors[0].extensions.invalid.map((i: { pointer: string }) => i.pointer),
      ["/title"],
    );
    const deep = `{ author(authorId: "a") { notes { author { notes { author { notes { author { notes { author { notes { author { authorId } } } } } } } } } } } }`;
    assert.equal((await gql(s.url, deep)).json.errors[0].extensions.code, "DEPTH_LIMIT_EXCEEDED");
    const badToken = await gql(s.url, `{ __typename }`, undefined, { token: "nope" });
    assert.equal(badToken.status, 401);
  });

  const SUBSCRIBE = `subscription($a: ID!) { noteChanged(authorId: $a) { noteId ownerId title sentAt } }`;
  type Change = { noteId: string; ownerId: string; title: string; sentAt: string };

  it("Subscription.noteChanged: a mocked event at every tick, over graphql-ws and graphql-sse", async () => {
    const ws = createWsClient({
      url: `${s.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const sse = createSseClient({
      url: `${s.url}/graphql/stream`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    try {
      for (const client of [ws, sse]) {
        const got: Change[] = [];
        for await (const result of client.iterate({ query: SUBSCRIBE, variables: { a: "aut_7" } })) {
          assert.equal(result.errors, undefined, JSON.stringify(result.errors));
          got.push((result.data as { noteChanged: Change }).noteChanged);
          if (got.length === 2) break;
        }
        assert.equal(got.length, 2);
        assert.notEqual(got[0].noteId, got[1].noteId, "each tick is a new event");
        assert.ok(Date.parse(got[0].sentAt) < Date.parse(got[1].sentAt), JSON.stringify(got));
        assert.ok(
          got.every((c) => c.noteId && c.ownerId && c.title && !Number.isNaN(Date.parse(c.sentAt))),
          JSON.stringify(got),
        );
      }
    } finally {
      await ws.dispose();
      sse.dispose();
    }
  });

  it("Subscription: the same @auth (a token lacking notes:read is refused)", async () => {
    const ws = createWsClient({
      url: `${s.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { authorization: `Bearer ${await token("aut_7", "authors:read")}` },
    });
    try {
      const results = [];
      for await (const result of ws.iterate({ query: SUBSCRIBE, variables: { a: "aut_7" } })) results.push(result);
      assert.deepEqual(
        results.map((r) => [r.data ?? null, r.errors?.map((e) => (e.extensions as { code: string }).code)]),
        [[null, ["FORBIDDEN"]]],
      );
    } finally {
      await ws.dispose();
    }
  });
});

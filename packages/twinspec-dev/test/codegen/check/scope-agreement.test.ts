// The cross-spec scope check: an application's real specs (the fixture's) agree; a deliberately mismatched pair is named, each mismatch once.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pairs as capabilities } from "../../../../twinspec/test/fixture/generated/contract.js";
import { checkScopes, formatScopes } from "../../../src/codegen/check/scope-agreement.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const doc = loadDocument(join(FIXTURE, "openapi.yaml"));
const sdl = readFileSync(join(FIXTURE, "schema.graphql"), "utf8");

describe("scope agreement between openapi.yaml and schema.graphql", () => {
  it("the real specs need the same scopes for every paired operation (x-graphql)", () => {
    assert.deepEqual(checkScopes(doc, sdl, capabilities), []);
  });

  it("names every mismatch: a changed field scope, a type-level scope, a missing field, a missing operation", () => {
    const broken = sdl
      .replace(
        'author(authorId: ID!): Author @auth(scopes: ["authors:read"])',
        'author(authorId: ID!): Author @auth(scopes: ["authors:write"])',
      )
      .replace('notes: [Note!]! @auth(scopes: ["notes:read"])', "notes: [Note!]!")
      .replace("type Author {", 'type Author @auth(scopes: ["admin"]) {');
    assert.notEqual(broken.indexOf('"authors:write"'), -1, "(sanity) the edits apply");
    const pairs = { ...capabilities, ghostOperation: "Query.note", getNote: "Query.noSuchField" };
    const mismatches = checkScopes(doc, broken, pairs);
    assert.deepEqual(
      mismatches.map((m) => `${m.operationId}|${m.field}|${m.rest}|${m.graphql}`).sort(),
      [
        "getAuthor|Query.author|authors:read|authors:write",
        "getNote|Query.noSuchField||(no such field)",
        "ghostOperation|Query.note|(no such operation)|",
        "listAuthorNotes|Author.notes|notes:read|admin",
      ].sort(),
    );
    const report = formatScopes(mismatches);
    assert.match(report, /getAuthor ↔ Query\.author: REST needs authors:read, GraphQL needs authors:write/);
  });

  it("a lookup pairs with its root field and the relation fields after it (x-graphql: a list): each is compared", () => {
    const pairs = { getAuthor: ["Query.author", "Note.author"] };
    assert.deepEqual(
      checkScopes(doc, sdl, pairs).map((m) => `${m.operationId}|${m.field}|${m.rest}|${m.graphql}`),
      ["getAuthor|Note.author|authors:read|(public)"],
    );
    const agreeing = sdl.replace(
      /author: Author @unpaired/,
      'author: Author @auth(scopes: ["authors:read"]) @unpaired',
    );
    assert.deepEqual(checkScopes(doc, agreeing, pairs), []);
  });
});

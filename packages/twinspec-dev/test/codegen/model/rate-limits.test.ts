// rate-limits.ts: the budgets openapi.yaml (x-rate-limit) and schema.graphql (@rateLimit) declare, which operation
// spends which, every malformed declaration named — and http-checks.ts asking for 429 on every limited operation.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSchema } from "graphql";
import { parse } from "yaml";
import { checkHttpContract } from "../../../src/codegen/check/http-checks.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { readGraphqlRateLimits, readRestRateLimits } from "../../../src/codegen/model/rate-limits.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const restText = readFileSync(join(FIXTURE, "openapi.yaml"), "utf8");
const sdlText = readFileSync(join(FIXTURE, "schema.graphql"), "utf8");

function rest(edit: (doc: any) => void = () => {}) {
  const doc = parse(restText) as JsonObject;
  edit(doc);
  const problems: string[] = [];
  const operations = collectOperations(doc, "openapi.yaml");
  return {
    ...readRestRateLimits(doc, operations, (at, message) => problems.push(`${at}: ${message}`)),
    problems,
    operations,
  };
}

function graphql(sdl = sdlText) {
  const problems: string[] = [];
  return { ...readGraphqlRateLimits(buildSchema(sdl), (at, message) => problems.push(`${at}: ${message}`)), problems };
}

describe("rate limits declared in the specs", () => {
  it("openapi.yaml: the nearest declaration wins — the operation's, its first tag's, the document's", () => {
    const { budgets, rest: spends, problems } = rest();
    assert.deepEqual(problems, []);
    assert.deepEqual(budgets, {
      default: { limit: 600, window: 60 },
      "tag:notes": { limit: 1200, window: 60 },
      "op:deleteNote": { limit: 60, window: 60 },
    });
    assert.equal(spends.getAuthor, "default");
    assert.equal(spends.createAuthor, "default");
    assert.equal(spends.getNote, "tag:notes");
    // deleteNote's first tag is notes, which has a budget; its own declaration wins anyway.
    assert.equal(spends.deleteNote, "op:deleteNote");
  });

  it("without a default, only operations that (or whose tag) declare one are limited", () => {
    const { rest: spends } = rest((doc) => delete doc["x-rate-limit"]);
    assert.deepEqual(spends, {
      listNotes: "tag:notes",
      createNote: "tag:notes",
      getNote: "tag:notes",
      deleteNote: "op:deleteNote",
      patchNote: "tag:notes",
      listAuthorNotes: "tag:notes",
      writeNote: "tag:notes",
    });
  });

  it("schema.graphql: @rateLimit on the schema for every operation type, on a root type for that type", () => {
    const { budgets, graphql: spends, problems } = graphql();
    assert.deepEqual(problems, []);
    assert.deepEqual(budgets, {
      graphql: { limit: 30000, window: 60 },
      "graphql:Mutation": { limit: 3000, window: 60 },
    });
    assert.deepEqual(spends, { query: "graphql", mutation: "graphql:Mutation", subscription: "graphql" });
  });

  const malformed: [string, (doc: any) => void, string][] = [
    ["a missing window", (doc) => (doc["x-rate-limit"] = { limit: 10 }), "/x-rate-limit: x-rate-limit must be { limit"],
    [
      "a zero limit on a tag",
      (doc) => (doc.tags[1]["x-rate-limit"] = { limit: 0, window: 60 }),
      "/tags/1/x-rate-limit: x-rate-limit must be",
    ],
    [
      "a fraction on an operation",
      (doc) => (doc.paths["/notes/{noteId}"].get["x-rate-limit"] = { limit: 10, window: 0.5 }),
      "/paths/getNote/x-rate-limit: x-rate-limit must be",
    ],
    [
      "an unknown key",
      (doc) => (doc["x-rate-limit"] = { limit: 10, window: 60, burst: 5 }),
      "/x-rate-limit: x-rate-limit must be",
    ],
    [
      "a budget on a tag whose name cannot be a policy name",
      (doc) => ((doc.tags[1].name = "tâches"), (doc.tags[1]["x-rate-limit"] = { limit: 10, window: 60 })),
      "/tags/1/x-rate-limit: a tag with a budget needs a printable ASCII name",
    ],
  ];
  for (const [name, edit, message] of malformed) {
    it(`names ${name}`, () => {
      const { problems } = rest(edit);
      assert.ok(
        problems.some((p) => p.startsWith(message)),
        problems.join("\n"),
      );
    });
  }

  it("names a GraphQL budget that is not positive", () => {
    assert.match(
      graphql(
        sdlText.replace("extend schema @rateLimit(limit: 30000", "extend schema @rateLimit(limit: -1"),
      ).problems.join("\n"),
      /^schema: @rateLimit needs a positive limit/,
    );
    assert.match(
      graphql(
        sdlText.replace(
          "extend type Mutation @rateLimit(limit: 3000, window: 60)",
          "extend type Mutation @rateLimit(limit: 3000, window: 0)",
        ),
      ).problems.join("\n"),
      /^Mutation: @rateLimit needs/,
    );
  });

  it("every limited operation must declare 429; an unlimited one need not", () => {
    const check = (edit: (doc: any) => void) => {
      const { rest: spends, operations } = rest(edit);
      return checkHttpContract(operations, "openapi.yaml", new Set(Object.keys(spends))).map((p) => p.message);
    };
    assert.deepEqual(
      check(() => {}),
      [],
    );
    assert.deepEqual(
      check((doc) => delete doc.paths["/notes/{noteId}"].get.responses["429"]),
      ["getNote must declare 429: it spends a rate limit (x-rate-limit)"],
    );
    assert.deepEqual(
      check((doc) => {
        delete doc["x-rate-limit"];
        delete doc.paths["/authors"].get.responses["429"];
      }),
      [],
    );
  });
});

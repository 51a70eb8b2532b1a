// relations.ts: which GraphQL fields are relations (a list under a parent, paired with its REST collection; one
// instance an object names, listed in its lookup's x-graphql after the root field), what generate writes for them
// (resolvers over batch loaders, the one batched method asked of each domain module), and every refusal named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { readContract } from "../../../src/codegen/model/contract.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { checkAgreement } from "../../../src/codegen/check/spec-agreement.js";
import { agreementConfig } from "../../../src/codegen/check/spec-agreement.config.js";
import { emitWiring } from "../../../src/codegen/emit/contract-emitter.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const restText = readFileSync(join(FIXTURE, "openapi.yaml"), "utf8");
const sdlText = readFileSync(join(FIXTURE, "schema.graphql"), "utf8");
const getAuthor = (doc: any) => doc.paths["/authors/{authorId}"].get;

/** The fixture, with Note naming its author by authorId (both specs), and getAuthor's x-graphql set to `pairs`. */
function read(pairs: unknown, { authorId = true } = {}) {
  const doc = parse(restText);
  if (authorId) doc.components.schemas.Note.properties.authorId = { type: "string" };
  getAuthor(doc)["x-graphql"] = pairs;
  let sdl = sdlText.replace(/author: Author @unpaired\([^)]*\)/, "author: Author");
  if (authorId) sdl = sdl.replace("  ownerId: ID!\n", "  ownerId: ID!\n  authorId: ID\n");
  const { restProperties, mismatches } = checkAgreement(doc as JsonObject, sdl, agreementConfig);
  const read = readContract(doc as JsonObject, collectOperations(doc as JsonObject, "openapi.yaml"), sdl, (t) =>
    restProperties.get(t),
  );
  return { ...read, mismatches, messages: read.problems.map((p) => p.message).join("\n") };
}

describe("relations: fields read through their paired REST collection or lookup", () => {
  it("a list under a parent, paired with its collection: Author.notes lists notes, batched on authorId", () => {
    const { contract } = read("Query.author");
    assert.deepEqual(contract.fields.find((f) => f.coordinate === "Author.notes")!.relation, {
      kind: "list",
      resource: "notes",
      by: "authorId",
    });
  });

  it("one instance, listed in its lookup's x-graphql after the root field: keyed by the property named like its id", () => {
    const { contract, problems, mismatches } = read(["Query.author", "Note.author"]);
    assert.deepEqual(problems, []);
    assert.deepEqual(mismatches, [], "the listed field is paired: no type agreement problem");
    const field = contract.fields.find((f) => f.coordinate === "Note.author")!;
    assert.deepEqual(field.relation, { kind: "one", resource: "authors", by: "authorId", nullable: true });
    assert.equal(field.operationId, "getAuthor");
    assert.equal(
      contract.operations.get("getAuthor")!.graphql,
      "Query.author",
      "the root field stays the operation's pair",
    );
  });

  it("generate writes its resolver over a lookup loader and asks the domain module for getMany", () => {
    const { contract } = read(["Query.author", "Note.author"]);
    const wiring = emitWiring(contract, new Map());
    assert.match(wiring, /authors: GetMany<authorsDomain\.Author>/);
    assert.match(wiring, /type GetMany<M> = \{ getMany\(ids: readonly string\[\]\): Promise<M\[\]> \};/);
    assert.match(
      wiring,
      /author: \(parent, _args, context\) =>\n\s+loadOptional\(lookupLoader\(context, "authors", \(ids\) => fetched\(context\.services\.authors\)\.getMany\(ids\), \(item\) => item\.authorId\), parent\.authorId\),/,
    );
    assert.match(wiring, /import \{ loadOptional, lookupLoader, relationLoader, selectedFields \} from "twinspec";/);
  });

  it("a non-null one answers NOT_FOUND for a missing instance (loadRequired, naming it)", () => {
    const { contract } = read(["Query.author", "Note.author"]);
    const plan = contract.fields.find((f) => f.coordinate === "Note.author")!;
    delete plan.relation!.nullable;
    assert.match(
      emitWiring(contract, new Map()),
      /loadRequired\(lookupLoader\(context, "authors", .*\), "author", parent\.authorId\)/,
    );
  });

  it("refuses a field after the first that is no relation: another type, a missing key property, a root field", () => {
    assert.match(
      read(["Query.author", "Note.title"]).messages,
      /getAuthor: x-graphql names Note.title after its first entry, so it must be a relation the operation reads: a field without arguments returning one Author, named by a property authorId of its type/,
    );
    assert.match(
      read(["Query.author", "Note.author"], { authorId: false }).messages,
      /x-graphql names Note.author after its first entry, so it must be a relation/,
    );
    assert.match(read(["Note.author", "Query.author"]).messages, /x-graphql names Query.author after its first entry/);
  });

  it("refuses an x-graphql that is neither a field nor a list of fields, and a field paired twice", () => {
    for (const bad of [[], [1], { field: "Query.author" }])
      assert.match(read(bad).messages, /getAuthor: x-graphql is a field \(Type.field\), or a list of them/);
    assert.match(
      read(["Query.author", "Query.authors"]).messages,
      /getAuthor: Query.authors is already paired with listAuthors/,
    );
  });
});

// contract.ts: what the two specs state together — resources, scopes, pairing, ownership, where each resolver lives —
// read from an application's real specs (the fixture's), and every gap named when a spec is edited into inconsistency.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { readContract } from "../../../src/codegen/model/contract.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { checkAgreement } from "../../../src/codegen/check/spec-agreement.js";
import { agreementConfig } from "../../../src/codegen/check/spec-agreement.config.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const restText = readFileSync(join(FIXTURE, "openapi.yaml"), "utf8");
const sdlText = readFileSync(join(FIXTURE, "schema.graphql"), "utf8");

function read(editRest: (doc: any) => void = () => {}, editSdl: (sdl: string) => string = (s) => s) {
  const doc = parse(restText) as JsonObject;
  editRest(doc);
  const sdl = editSdl(sdlText);
  const { restProperties } = checkAgreement(doc, sdl, agreementConfig);
  return readContract(doc, collectOperations(doc, "openapi.yaml"), sdl, (t) => restProperties.get(t));
}
const messages = (r: ReturnType<typeof read>) => r.problems.map((p) => p.message);

describe("the contract of openapi.yaml and schema.graphql", () => {
  it("reads the real specs without a problem: resources, scopes, pairs", () => {
    const { contract, problems } = read();
    assert.deepEqual(problems, []);
    const found = contract.resources.map((r) => `${r.tag}:${r.schema}:${r.id}:${r.idPrefix}:${r.owner}:${r.path}`);
    for (const known of [
      "notes:Note:noteId:not:ownerId:/notes/{noteId}",
      "authors:Author:authorId:aut:self:/authors/{authorId}",
    ]) {
      assert.ok(found.includes(known), `${known} in ${found.join(", ")}`);
    }
    assert.ok("admin" in contract.scopes && "notes:write" in contract.scopes);
    assert.equal(contract.operations.get("patchNote")!.graphql, "Mutation.updateNote");
    assert.equal(contract.operations.get("writeNote")!.graphql, undefined);
  });

  it("ownership: the first path parameter or argument naming an owned resource, else the whole collection", () => {
    const { contract } = read();
    assert.deepEqual(contract.operations.get("getNote")!.ownership, {
      kind: "instance",
      resource: "notes",
      from: "noteId",
    });
    assert.deepEqual(contract.operations.get("writeNote")!.ownership, {
      kind: "instance",
      resource: "authors",
      from: "authorId",
    });
    assert.deepEqual(contract.operations.get("listAuthors")!.ownership, { kind: "collection", resource: "authors" });
    const field = (c: string) => contract.fields.find((f) => f.coordinate === c)!;
    assert.deepEqual(field("Mutation.updateNote").ownership, { kind: "instance", resource: "notes", from: "noteId" });
    assert.deepEqual(field("Mutation.createAuthor").ownership, { kind: "collection", resource: "authors" });
  });

  it("a resource nobody owns needs no ownership check", () => {
    const { contract, problems } = read((doc) => (doc.tags[0]["x-resource"].owner = "none"));
    assert.deepEqual(problems, []);
    assert.deepEqual(contract.operations.get("getNote")!.ownership, { kind: "none" });
  });

  describe("owners through a parent (x-resource owner: { through, by })", () => {
    const through =
      (owner: unknown, prop = "authorId") =>
      (doc: any) => {
        doc.components.schemas.Note.properties[prop] = { type: "string" };
        doc.tags[0]["x-resource"].owner = owner;
      };

    it("records the parent, and what must be live before each operation and root field of the child runs", () => {
      const { contract, problems } = read(through({ through: "authors", by: "authorId" }));
      assert.deepEqual(problems, []);
      const notes = contract.resources.find((r) => r.tag === "notes")!;
      assert.deepEqual([notes.owner, notes.through], ["authorId", "authors"]);
      assert.deepEqual(contract.operations.get("listAuthorNotes")!.parent, {
        resource: "authors",
        from: "authorId",
        of: "itself",
      });
      assert.deepEqual(contract.operations.get("getNote")!.parent, {
        resource: "notes",
        from: "noteId",
        of: "parents",
      });
      assert.equal(
        contract.operations.get("getAuthor")!.parent,
        undefined,
        "the parent's own operations check nothing more",
      );
      assert.deepEqual(contract.fields.find((f) => f.coordinate === "Mutation.updateNote")!.parent, {
        resource: "notes",
        from: "noteId",
        of: "parents",
      });
      assert.deepEqual(contract.operations.get("getNote")!.ownership, {
        kind: "instance",
        resource: "notes",
        from: "noteId",
      });
    });

    it("names a parent that is no resource, a property that is not the parent's id, a missing property, and a loop", () => {
      assert.match(
        messages(read(through({ through: "books", by: "authorId" }))).join("\n"),
        /owner.through names books, which is no tag with x-resource/,
      );
      assert.match(
        messages(read(through({ through: "authors", by: "ownerId" }))).join("\n"),
        /owner.by must be authorId, the id of its parent authors, not ownerId/,
      );
      assert.match(
        messages(read(through({ through: "authors", by: "writer" }, "other"))).join("\n"),
        /owner.by must be a property of Note, not "writer"/,
      );
      assert.match(
        messages(read(through({ through: "authors" }))).join("\n"),
        /an owner through a parent is \{ through/,
      );
      const loop = (doc: any) => {
        through({ through: "authors", by: "authorId" })(doc);
        doc.components.schemas.Author.properties.noteId = { type: "string" };
        doc.tags[1]["x-resource"].owner = { through: "notes", by: "noteId" };
      };
      assert.match(messages(read(loop)).join("\n"), /its owners go round in a loop \(notes → authors → notes\)/);
    });
  });

  it("places every resolver in a tag's file: paired fields with their operation, others with their type", () => {
    const { contract } = read();
    const where = Object.fromEntries(contract.fields.map((f) => [f.coordinate, f.tag]));
    assert.equal(where["Author.notes"], "notes");
    assert.equal(where["Note.author"], "authors", "an unpaired field where its @unpaired(tag:) says");
    assert.equal(where["Query.author"], "authors");
    assert.equal(where["Mutation.deleteNote"], "notes");
    assert.equal(where["Subscription.noteChanged"], "notes");
    assert.equal(where["Author.name"], undefined, "a field the domain object carries needs no resolver");
  });

  it("shares input rules with the paired operation: ids like path parameters, the input like the body", () => {
    const { contract } = read();
    const input = (c: string) => contract.fields.find((f) => f.coordinate === c)!.input;
    assert.deepEqual(input("Mutation.updateNote"), {
      operationId: "patchNote",
      pathArgs: ["noteId"],
      body: { contentType: "application/merge-patch+json", arg: "input" },
    });
    // The body's properties as arguments of their own.
    const flat = read(undefined, (sdl) =>
      sdl.replace(
        "updateNote(noteId: ID!, input: UpdateNoteInput!): Note",
        "updateNote(noteId: ID!, title: String, body: String): Note",
      ),
    );
    assert.deepEqual(flat.problems, []);
    assert.deepEqual(flat.contract.fields.find((f) => f.coordinate === "Mutation.updateNote")!.input, {
      operationId: "patchNote",
      pathArgs: ["noteId"],
      body: { contentType: "application/merge-patch+json", args: ["title", "body"] },
    });
  });

  const broken: [string, (doc: any) => void, (sdl: string) => string, RegExp][] = [
    [
      "an operation neither paired nor declared REST-only",
      (doc) => delete doc.paths["/notes/{noteId}"].get["x-graphql"],
      (s) => s,
      /getNote is not paired: add x-graphql/,
    ],
    [
      "a root field no operation pairs with",
      (doc) => {
        delete doc.paths["/notes/{noteId}"].get["x-graphql"];
        doc.paths["/notes/{noteId}"].get["x-unpaired"] = "testing";
      },
      (s) => s,
      /Query\.note is not paired/,
    ],
    [
      "x-graphql naming a field that does not exist",
      (doc) => (doc.paths["/notes/{noteId}"].get["x-graphql"] = "Query.noteById"),
      (s) => s,
      /x-graphql names Query\.noteById, which schema\.graphql does not have/,
    ],
    [
      "a field paired twice",
      (doc) => (doc.paths["/authors/{authorId}"].get["x-graphql"] = "Query.note"),
      (s) => s,
      /Query\.note is already paired with/,
    ],
    [
      "a scope no scheme declares (REST)",
      (doc) => (doc.paths["/notes/{noteId}"].get.security = [{ bearerAuth: ["notes:admin"] }]),
      (s) => s,
      /asks for scope "notes:admin", which no security scheme's x-scopes declares/,
    ],
    [
      "a scope no scheme declares (GraphQL)",
      () => {},
      (s) =>
        s.replace(
          'note(noteId: ID!): Note @auth(scopes: ["notes:read"])',
          'note(noteId: ID!): Note @auth(scopes: ["notes:admin"])',
        ),
      /@auth asks for scope "notes:admin"/,
    ],
    [
      "an owner that is not a property",
      (doc) => (doc.tags[0]["x-resource"].owner = "writerId"),
      (s) => s,
      /owner must be "none" or a property of Note, not "writerId"/,
    ],
    [
      "an operation without a tag",
      (doc) => delete doc.paths["/notes/{noteId}"].get.tags,
      (s) => s,
      /getNote has no tag/,
    ],
    [
      "a subscription paired with an operation that is no event stream",
      (doc) => (doc.paths["/notes/{noteId}"].get["x-graphql"] = "Subscription.noteChanged"),
      (s) => s.replace(/\n    @unpaired\(reason: "changes are pushed[^\n]*/, ""),
      /getNote pairs with the subscription Subscription\.noteChanged: it must be a GET answering 200 text\/event-stream/,
    ],
    [
      "an event stream paired with a field that is no subscription",
      (doc) =>
        (doc.paths["/notes/{noteId}"].get.responses["200"] = {
          description: "a stream",
          content: { "text/event-stream": { schema: { type: "object" } } },
        }),
      (s) => s,
      /getNote answers text\/event-stream: pair it with a subscription field/,
    ],
    [
      "a GraphQL-only root field with no home",
      () => {},
      (s) => s.replace("type Query {", 'type Query {\n  ping: String @unpaired(reason: "health")'),
      /cannot tell which tag's file holds the resolver of Query\.ping/,
    ],
  ];
  for (const [name, editRest, editSdl, expected] of broken) {
    it(`names ${name}`, () => {
      const found = messages(read(editRest, editSdl));
      assert.ok(
        found.some((m) => expected.test(m)),
        found.join("\n"),
      );
    });
  }
});

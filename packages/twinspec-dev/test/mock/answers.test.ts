// The mock's answer rules on their own: reading Prefer (RFC 7240), and named examples picked with Prefer: example=…
// from a copy of openapi.yaml that has some.
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadDocument, type JsonObject } from "../../src/codegen/load/spec.js";
import { HttpError } from "../../../twinspec/src/runtime/problem.js";
import { resources } from "../../../twinspec/test/fixture/generated/contract.js";
import { createAnswers } from "../../src/mock/answers.js";
import { preferences } from "../../src/mock/prefer.js";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { operationSpecs as operations } from "../../../twinspec/test/fixture/generated/rest.js";

describe("mock server: answer rules", () => {
  const table: [string, string | undefined, Record<string, string>][] = [
    ["one preference", "code=404", { code: "404" }],
    [
      "several, any case, spaces and parameters",
      'Code = 404 ; foo, example="the grace" , return=minimal',
      { code: "404", example: "the grace", return: "minimal" },
    ],
    ["the first of a name wins (RFC 7240 §2)", "code=404, code=500", { code: "404" }],
    ["a preference without a value", "respond-async", { "respond-async": "" }],
    ["quoted escapes", 'example="a\\"b"', { example: 'a"b' }],
    ["nothing", undefined, {}],
    ["garbage is ignored", "=, ;;, code", { code: "" }],
  ];
  for (const [name, header, want] of table) {
    it(`Prefer: ${name}`, () => assert.deepEqual(Object.fromEntries(preferences(header)), want));
  }

  it("echoes a path parameter wherever a string property of its name stands, in nested objects too", () => {
    const doc = structuredClone(loadDocument(join(FIXTURE, "openapi.yaml")));
    const responses = ((doc.paths as JsonObject)["/authors/{authorId}/notes"] as { get: { responses: JsonObject } }).get
      .responses;
    // The fixture's notes carry no authorId: this copy's example gives each one, as an application's nested items may.
    const note = {
      noteId: "not_a",
      authorId: "aut_x",
      ownerId: "user_1",
      title: "T",
      body: "B",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    responses["200"] = {
      description: "A page",
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/NotePage" },
          example: { items: [note, { ...note, noteId: "not_b" }], nextCursor: null },
        },
      },
    };
    const listAuthorNotes = operations.find((o) => o.operationId === "listAuthorNotes")!;
    const page = createAnswers(doc, resources)(listAuthorNotes, preferences(undefined), {
      params: { authorId: "aut_42" },
    }).body as { items: { noteId: string; authorId: string }[] };
    assert.deepEqual(
      page.items.map((n) => [n.noteId, n.authorId]),
      [
        ["not_a", "aut_42"],
        ["not_b", "aut_42"],
      ],
    );
  });

  describe("named examples", () => {
    const doc = structuredClone(loadDocument(join(FIXTURE, "openapi.yaml")));
    const responses = ((doc.paths as JsonObject)["/authors/{authorId}"] as { get: { responses: JsonObject } }).get
      .responses;
    const grace = {
      authorId: "aut_x",
      name: "Grace Hopper",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    responses["200"] = {
      description: "The author",
      headers: { ETag: { $ref: "#/components/headers/ETag" } },
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Author" },
          examples: { ada: { value: { ...grace, name: "Ada Lovelace" } }, grace: { value: grace } },
        },
      },
    };
    const answer = createAnswers(doc, resources);
    const getAuthor = operations.find((o) => o.operationId === "getAuthor")!;

    it("Prefer: example=name picks it (path parameters echoed); without one, the first", () => {
      const picked = answer(getAuthor, preferences("example=grace"), { params: { authorId: "aut_9" } });
      assert.deepEqual(picked, {
        status: 200,
        body: { ...grace, authorId: "aut_9" },
        headers: { ETag: '"v1"' },
        contentType: "application/json",
      });
      assert.equal(
        (answer(getAuthor, preferences(undefined), { params: { authorId: "aut_9" } }).body as { name: string }).name,
        "Ada Lovelace",
      );
      assert.equal(grace.authorId, "aut_x", "the document's example is not changed by echoing");
    });

    it("an unknown name is a 400 naming the examples there are", () => {
      assert.throws(
        () => answer(getAuthor, preferences("example=hopper"), { params: { authorId: "aut_9" } }),
        (error: HttpError) =>
          error.status === 400 &&
          /example=hopper: getAuthor 200 has the examples ada, grace/.test(error.problem.detail!),
      );
    });
  });
});

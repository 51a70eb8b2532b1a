// http-checks.ts: openapi.yaml must declare every status the runtime can answer for an operation, and the
// conditional headers of every resource with an ETag. An application's real spec (the fixture's) passes; each removal is named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { PROBLEMS } from "twinspec/internals";
import { checkHttpContract, runtimeStatuses } from "../../../src/codegen/check/http-checks.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const text = readFileSync(join(FIXTURE, "openapi.yaml"), "utf8");
const check = (edit: (doc: any) => void = () => {}) => {
  const doc = parse(text) as JsonObject;
  edit(doc);
  return checkHttpContract(collectOperations(doc, "openapi.yaml")).map((p) => p.message);
};
const params = (op: any) => op.parameters.map((p: { $ref: string }) => p.$ref.split("/").pop());

describe("statuses and conditional headers openapi.yaml must declare", () => {
  it("the real spec declares them all", () => assert.deepEqual(check(), []));

  it("what the runtime can answer follows from the operation: input, security, content, body, Idempotency-Key", () => {
    const doc = parse(text) as JsonObject;
    const ops = new Map(collectOperations(doc, "openapi.yaml").map((op) => [op.operationId, op]));
    assert.deepEqual([...runtimeStatuses(ops.get("createAuthor")!).keys()].sort(), [
      "400",
      "401",
      "403",
      "406",
      "408",
      "409",
      "413",
      "414",
      "415",
      "422",
      "431",
      "500",
      "503",
    ]);
    assert.deepEqual([...runtimeStatuses(ops.get("deleteNote")!).keys()].sort(), [
      "400",
      "401",
      "403",
      "408",
      "414",
      "431",
      "500",
      "503",
    ]);
  });

  it("every problem the runtime answers by itself has its status among them (the catalog, twinspec's runtime/problems.ts)", () => {
    const ops = new Map(collectOperations(parse(text) as JsonObject, "openapi.yaml").map((op) => [op.operationId, op]));
    const statuses = runtimeStatuses(ops.get("createAuthor")!, true);
    const own = [
      "validation",
      "unauthenticated",
      "insufficient_scope",
      "forbidden",
      "idempotency_key_reused",
      "rate_limited",
      "response_validation",
      "unavailable",
    ] as const;
    assert.deepEqual(
      own.filter((key) => !statuses.has(String(PROBLEMS[key].status))),
      [],
    );
  });

  const removals: [string, (doc: any) => void, string][] = [
    ["500", (doc) => delete doc.paths["/authors/{authorId}"].get.responses["500"], "getAuthor must declare 500"],
    ["406", (doc) => delete doc.paths["/authors"].get.responses["406"], "listAuthors must declare 406"],
    ["413", (doc) => delete doc.paths["/notes/{noteId}"].patch.responses["413"], "patchNote must declare 413"],
    ["401", (doc) => delete doc.paths["/notes/{noteId}"].get.responses["401"], "getNote must declare 401"],
    [
      "422 of an Idempotency-Key",
      (doc) => delete doc.paths["/authors/{authorId}/notes"].post.responses["422"],
      "writeNote must declare 422",
    ],
    [
      "If-Unmodified-Since on a write",
      (doc) =>
        (doc.paths["/notes/{noteId}"].patch.parameters = doc.paths["/notes/{noteId}"].patch.parameters.filter(
          (p: any) => !p.$ref.endsWith("IfUnmodifiedSince"),
        )),
      "patchNote acts on a resource with an ETag: declare the header parameter(s) If-Unmodified-Since",
    ],
    [
      "If-None-Match on a read",
      (doc) =>
        (doc.paths["/notes/{noteId}"].get.parameters = doc.paths["/notes/{noteId}"].get.parameters.filter(
          (p: any) => !p.$ref.endsWith("IfNoneMatch"),
        )),
      "getNote acts on a resource with an ETag: declare the header parameter(s) If-None-Match",
    ],
    [
      "304 on a read",
      (doc) => delete doc.paths["/authors/{authorId}"].get.responses["304"],
      "getAuthor acts on a resource with an ETag: declare 304",
    ],
  ];
  for (const [name, edit, message] of removals) {
    it(`names a missing ${name}`, () =>
      assert.ok(
        check(edit).some((m) => m.startsWith(message)),
        check(edit).join("\n"),
      ));
  }

  it("(sanity) the fixtures above edit what they mean to", () => {
    const doc = parse(text);
    assert.ok(params(doc.paths["/notes/{noteId}"].patch).includes("IfUnmodifiedSince"));
  });
});

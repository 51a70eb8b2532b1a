// breaking.ts: fixture pairs (before → after) for both specs; every client-breaking edit must be named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { graphqlChanges, openapiChanges, type Change } from "../../../src/codegen/check/breaking.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";

const DIR = "test/fixtures/breaking";
const rest = (after: string) =>
  openapiChanges(loadDocument(`${DIR}/before.openapi.yaml`), loadDocument(`${DIR}/${after}.openapi.yaml`));
const gql = (after: string) =>
  graphqlChanges(readFileSync(`${DIR}/before.graphql`, "utf8"), readFileSync(`${DIR}/${after}.graphql`, "utf8"));
const lines = (changes: Change[], severity: Change["severity"]) =>
  changes
    .filter((c) => c.severity === severity)
    .map((c) => `${c.at}: ${c.message}`)
    .sort();

describe("breaking changes: openapi.yaml", () => {
  it("an unchanged spec has no changes", () => {
    const doc = loadDocument(`${DIR}/before.openapi.yaml`);
    assert.deepEqual(openapiChanges(doc, structuredClone(doc)), []);
  });

  it("additions and widenings break nothing (new operation, optional field or parameter, wider bounds, renamed path parameter)", () => {
    assert.deepEqual(rest("after-compatible"), []);
  });

  it("names every breaking edit, each shared schema once", () => {
    const changes = rest("after-breaking");
    assert.deepEqual(lines(changes, "breaking"), [
      "DELETE /curators/{curatorId}: operation removed",
      "GET /curators query limit: narrowed: maximum 100 → 50",
      "GET /curators query region: new required parameter",
      "GET /curators response 200 header Link: header no longer always sent",
      "POST /curators request body: request body is now required",
      "components.schemas.Curator .email: field removed",
      "components.schemas.Curator .firstName: may now be null",
      "components.schemas.Curator .lastName: may now be missing (no longer required)",
      "components.schemas.Curator .visits: may now be string (was integer)",
      "components.schemas.CuratorInput .email: new required field",
      "components.schemas.CuratorInput .firstName: narrowed: maxLength 100 → 50",
      "components.schemas.CuratorInput .lastName: field is now required",
      "components.schemas.CuratorInput .nickname: no longer accepts null",
      "components.schemas.CuratorInput .referrer: field removed (now rejected as unknown)",
      "components.schemas.Legacy: schema removed (typed clients import it by name)",
      "components.schemas.Status: enum value BLOCKED removed",
    ]);
    assert.deepEqual(lines(changes, "dangerous"), [
      "components.schemas.Status: may now be SUSPENDED, a value old clients do not know",
    ]);
  });
});

describe("breaking changes: schema.graphql", () => {
  it("additions break nothing; graphql-js flags the risky ones as dangerous", () => {
    const changes = gql("after-compatible");
    assert.deepEqual(lines(changes, "breaking"), []);
    assert.deepEqual(lines(changes, "dangerous"), [
      "OPTIONAL_ARG_ADDED: An optional arg after on Query.curators was added.",
      "OPTIONAL_INPUT_FIELD_ADDED: An optional field note on input type CuratorInput was added.",
      "VALUE_ADDED_TO_ENUM: SUSPENDED was added to enum type Status.",
    ]);
  });

  it("names every breaking edit: removals, output made nullable, input made required", () => {
    assert.deepEqual(lines(gql("after-breaking"), "breaking"), [
      "FIELD_CHANGED_KIND: Curator.email changed type from String! to String.",
      "FIELD_CHANGED_KIND: CuratorInput.nickname changed type from String to String!.",
      "FIELD_REMOVED: Curator.legacy was removed.",
      "FIELD_REMOVED: Curator.nickname was removed.",
      "FIELD_REMOVED: Query.legacy was removed.",
      "REQUIRED_ARG_ADDED: A required arg region on Query.curators was added.",
      "REQUIRED_INPUT_FIELD_ADDED: A required field region on input type CuratorInput was added.",
      "TYPE_REMOVED: Legacy was removed.",
      "VALUE_REMOVED_FROM_ENUM: BLOCKED was removed from enum type Status.",
    ]);
  });
});

// breaking.ts: fixture pairs (before → after) for both specs; every client-breaking edit must be named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { graphqlChanges, openapiChanges, type Change } from "../../src/codegen/breaking.js";
import { loadDocument } from "../../src/codegen/spec.js";

const DIR = "test/fixtures/breaking";
const rest = (after: string) => openapiChanges(loadDocument(`${DIR}/before.openapi.yaml`), loadDocument(`${DIR}/${after}.openapi.yaml`));
const gql = (after: string) => graphqlChanges(readFileSync(`${DIR}/before.graphql`, "utf8"), readFileSync(`${DIR}/${after}.graphql`, "utf8"));
const lines = (changes: Change[], severity: Change["severity"]) => changes.filter((c) => c.severity === severity).map((c) => `${c.at}: ${c.message}`).sort();

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
      "DELETE /customers/{customerId}: operation removed",
      "GET /customers query limit: narrowed: maximum 100 → 50",
      "GET /customers query region: new required parameter",
      "GET /customers response 200 header Link: header no longer always sent",
      "POST /customers request body: request body is now required",
      "components.schemas.Customer .email: field removed",
      "components.schemas.Customer .firstName: may now be null",
      "components.schemas.Customer .lastName: may now be missing (no longer required)",
      "components.schemas.Customer .visits: may now be string (was integer)",
      "components.schemas.CustomerInput .email: new required field",
      "components.schemas.CustomerInput .firstName: narrowed: maxLength 100 → 50",
      "components.schemas.CustomerInput .lastName: field is now required",
      "components.schemas.CustomerInput .nickname: no longer accepts null",
      "components.schemas.CustomerInput .referrer: field removed (now rejected as unknown)",
      "components.schemas.Legacy: schema removed (typed clients import it by name)",
      "components.schemas.Status: enum value BLOCKED removed",
    ]);
    assert.deepEqual(lines(changes, "dangerous"), ["components.schemas.Status: may now be SUSPENDED, a value old clients do not know"]);
  });
});

describe("breaking changes: schema.graphql", () => {
  it("additions break nothing; graphql-js flags the risky ones as dangerous", () => {
    const changes = gql("after-compatible");
    assert.deepEqual(lines(changes, "breaking"), []);
    assert.deepEqual(lines(changes, "dangerous"), [
      "OPTIONAL_ARG_ADDED: An optional arg after on Query.customers was added.",
      "OPTIONAL_INPUT_FIELD_ADDED: An optional field note on input type CustomerInput was added.",
      "VALUE_ADDED_TO_ENUM: SUSPENDED was added to enum type Status.",
    ]);
  });

  it("names every breaking edit: removals, output made nullable, input made required", () => {
    assert.deepEqual(lines(gql("after-breaking"), "breaking"), [
      "FIELD_CHANGED_KIND: Customer.email changed type from String! to String.",
      "FIELD_CHANGED_KIND: CustomerInput.nickname changed type from String to String!.",
      "FIELD_REMOVED: Customer.legacy was removed.",
      "FIELD_REMOVED: Customer.nickname was removed.",
      "FIELD_REMOVED: Query.legacy was removed.",
      "REQUIRED_ARG_ADDED: A required arg region on Query.customers was added.",
      "REQUIRED_INPUT_FIELD_ADDED: A required field region on input type CustomerInput was added.",
      "TYPE_REMOVED: Legacy was removed.",
      "VALUE_REMOVED_FROM_ENUM: BLOCKED was removed from enum type Status.",
    ]);
  });
});

// The cross-spec scope check: the real specs agree; a deliberately mismatched pair is named, each mismatch once.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pairs as capabilities } from "../../generated/contract.js";
import { checkScopes, formatScopes } from "../../packages/twinspec/src/codegen/scope-agreement.js";
import { loadDocument } from "../../packages/twinspec/src/codegen/spec.js";

const doc = loadDocument("openapi.yaml");
const sdl = readFileSync("schema.graphql", "utf8");

describe("scope agreement between openapi.yaml and schema.graphql", () => {
  it("the real specs need the same scopes for every paired operation (x-graphql)", () => {
    assert.deepEqual(checkScopes(doc, sdl, capabilities), []);
  });

  it("names every mismatch: a changed field scope, a type-level scope, a missing field, a missing operation", () => {
    const broken = sdl
      .replace('customer(customerId: ID!): Customer @auth(scopes: ["customers:read"])', 'customer(customerId: ID!): Customer @auth(scopes: ["customers:write"])')
      .replace('orders: [Order!]! @auth(scopes: ["orders:read"])', "orders: [Order!]!")
      .replace("type Customer {", 'type Customer @auth(scopes: ["admin"]) {');
    const pairs = { ...capabilities, ghostOperation: "Query.job", getJob: "Query.noSuchField" };
    const mismatches = checkScopes(doc, broken, pairs);
    assert.deepEqual(
      mismatches.map((m) => `${m.operationId}|${m.field}|${m.rest}|${m.graphql}`).sort(),
      [
        "getCustomer|Query.customer|customers:read|customers:write",
        "getJob|Query.noSuchField||(no such field)",
        "ghostOperation|Query.job|(no such operation)|",
        "listCustomerOrders|Customer.orders|orders:read|admin",
      ].sort(),
    );
    const report = formatScopes(mismatches);
    assert.match(report, /getCustomer ↔ Query\.customer: REST needs customers:read, GraphQL needs customers:write/);
  });
});

// http-checks.ts: openapi.yaml must declare every status the runtime can answer for an operation, and the
// conditional headers of every resource with an ETag. The real spec passes; each removal is named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { checkHttpContract, runtimeStatuses } from "../../packages/twinspec/src/codegen/http-checks.js";
import { collectOperations } from "../../packages/twinspec/src/codegen/operations.js";
import type { JsonObject } from "../../packages/twinspec/src/codegen/spec.js";

const text = readFileSync("openapi.yaml", "utf8");
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
    assert.deepEqual([...runtimeStatuses(ops.get("createCustomer")!).keys()].sort(), ["400", "401", "403", "406", "408", "409", "413", "414", "415", "422", "431", "500", "503"]);
    assert.deepEqual([...runtimeStatuses(ops.get("deleteCart")!).keys()].sort(), ["400", "401", "403", "408", "414", "431", "500", "503"]);
  });

  const removals: [string, (doc: any) => void, string][] = [
    ["500", (doc) => delete doc.paths["/customers/{customerId}"].get.responses["500"], "getCustomer must declare 500"],
    ["406", (doc) => delete doc.paths["/customers"].get.responses["406"], "listCustomers must declare 406"],
    ["413", (doc) => delete doc.paths["/carts/{cartId}"].put.responses["413"], "replaceCart must declare 413"],
    ["401", (doc) => delete doc.paths["/jobs/{jobId}"].get.responses["401"], "getJob must declare 401"],
    ["422 of an Idempotency-Key", (doc) => delete doc.paths["/customers/{customerId}/orders"].post.responses["422"], "placeOrder must declare 422"],
    [
      "If-Unmodified-Since on a write",
      (doc) => (doc.paths["/customers/{customerId}"].patch.parameters = doc.paths["/customers/{customerId}"].patch.parameters.filter((p: any) => !p.$ref.endsWith("IfUnmodifiedSince"))),
      "patchCustomer acts on a resource with an ETag: declare the header parameter(s) If-Unmodified-Since",
    ],
    [
      "If-None-Match on a read",
      (doc) => (doc.paths["/orders/{orderId}"].get.parameters = doc.paths["/orders/{orderId}"].get.parameters.filter((p: any) => !p.$ref.endsWith("IfNoneMatch"))),
      "getOrder acts on a resource with an ETag: declare the header parameter(s) If-None-Match",
    ],
    ["304 on a read", (doc) => delete doc.paths["/carts/{cartId}"].get.responses["304"], "getCart acts on a resource with an ETag: declare 304"],
  ];
  for (const [name, edit, message] of removals) {
    it(`names a missing ${name}`, () => assert.ok(check(edit).some((m) => m.startsWith(message)), check(edit).join("\n")));
  }

  it("(sanity) the fixtures above edit what they mean to", () => {
    const doc = parse(text) as any;
    assert.ok(params(doc.paths["/customers/{customerId}"].patch).includes("IfUnmodifiedSince"));
  });
});

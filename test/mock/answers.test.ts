// The mock's answer rules on their own: reading Prefer (RFC 7240), and named examples picked with Prefer: example=…
// from a copy of openapi.yaml that has some.
import assert from "node:assert/strict";
import { loadDocument, type JsonObject } from "../../packages/twinspec/src/codegen/spec.js";
import { HttpError } from "../../packages/twinspec/src/http/problem.js";
import { resources } from "../../generated/contract.js";
import { createAnswers } from "../../packages/twinspec/src/mock/answers.js";
import { preferences } from "../../packages/twinspec/src/mock/prefer.js";
import { operations } from "../support/spec.js";

describe("mock server: answer rules", () => {
  const table: [string, string | undefined, Record<string, string>][] = [
    ["one preference", "code=404", { code: "404" }],
    ["several, any case, spaces and parameters", 'Code = 404 ; foo, example="the grace" , return=minimal', { code: "404", example: "the grace", return: "minimal" }],
    ["the first of a name wins (RFC 7240 §2)", "code=404, code=500", { code: "404" }],
    ["a preference without a value", "respond-async", { "respond-async": "" }],
    ["quoted escapes", 'example="a\\"b"', { example: 'a"b' }],
    ["nothing", undefined, {}],
    ["garbage is ignored", "=, ;;, code", { code: "" }],
  ];
  for (const [name, header, want] of table) {
    it(`Prefer: ${name}`, () => assert.deepEqual(Object.fromEntries(preferences(header)), want));
  }

  describe("named examples", () => {
    const doc = structuredClone(loadDocument("openapi.yaml"));
    const responses = ((doc.paths as JsonObject)["/customers/{customerId}"] as { get: { responses: JsonObject } }).get.responses;
    const grace = { customerId: "cus_x", firstName: "Grace", lastName: "Hopper", email: "grace@example.com", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
    responses["200"] = {
      description: "The customer",
      headers: { ETag: { $ref: "#/components/headers/ETag" } },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Customer" }, examples: { ada: { value: { ...grace, firstName: "Ada" } }, grace: { value: grace } } } },
    };
    const answer = createAnswers(doc, resources);
    const getCustomer = operations.find((o) => o.operationId === "getCustomer")!;

    it("Prefer: example=name picks it (path parameters echoed); without one, the first", () => {
      const picked = answer(getCustomer, preferences("example=grace"), { params: { customerId: "cus_9" } });
      assert.deepEqual(picked, { status: 200, body: { ...grace, customerId: "cus_9" }, headers: { ETag: '"v1"' }, contentType: "application/json" });
      assert.equal((answer(getCustomer, preferences(undefined), { params: { customerId: "cus_9" } }).body as { firstName: string }).firstName, "Ada");
      assert.equal(grace.customerId, "cus_x", "the document's example is not changed by echoing");
    });

    it("an unknown name is a 400 naming the examples there are", () => {
      assert.throws(
        () => answer(getCustomer, preferences("example=hopper"), { params: { customerId: "cus_9" } }),
        (error: HttpError) => error.status === 400 && /example=hopper: getCustomer 200 has the examples ada, grace/.test(error.problem.detail!),
      );
    });
  });
});

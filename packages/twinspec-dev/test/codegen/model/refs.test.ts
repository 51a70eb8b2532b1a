// refs: $refs into operations made components, so openapi-typescript's output compiles.
import assert from "node:assert/strict";
import { Warnings } from "../../../src/codegen/load/diagnostics.js";
import { hoistPathRefs } from "../../../src/codegen/model/refs.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { openapi } from "../support.js";

describe("hoistPathRefs", () => {
  const problem = { type: "object", properties: { id: { type: "string" } } };
  const page = { name: "page", in: "query", schema: { type: "integer" } };
  const doc = (): JsonObject =>
    openapi({
      "/a/{id}": {
        get: {
          parameters: [page],
          responses: { "401": { description: "no", content: { "application/json": { schema: problem } } } },
        },
      },
      "/b": {
        get: {
          parameters: [{ $ref: "#/paths/~1a~1%7Bid%7D/get/parameters/0" }],
          responses: {
            "401": { $ref: "#/paths/~1a~1{id}/get/responses/401" },
            "429": {
              description: "slow",
              content: {
                "application/json": {
                  schema: { $ref: "#/paths/~1a~1{id}/get/responses/401/content/application~1json/schema" },
                },
              },
            },
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    $ref: "#/paths/~1a~1{id}/get/responses/401/content/application~1json/schema/properties/id",
                  },
                },
              },
            },
          },
        },
      },
    });

  it("makes each target a component (the same object) and points the $refs there, with a warning per target", () => {
    const d = doc();
    const warnings = new Warnings("t.yaml");
    hoistPathRefs(d, warnings);
    const b = (
      d.paths as { [p: string]: { get: { parameters: JsonObject[]; responses: { [s: string]: JsonObject } } } }
    )["/b"].get;
    const components = d.components as { [kind: string]: { [name: string]: unknown } };
    assert.deepEqual(b.parameters, [{ $ref: "#/components/parameters/AIdGetParameters0" }]);
    assert.equal(components.parameters.AIdGetParameters0, page);
    assert.deepEqual(b.responses["401"], { $ref: "#/components/responses/AIdGetResponses401" });
    const schemaOf = (status: string) =>
      ((b.responses[status].content as JsonObject)["application/json"] as JsonObject).schema;
    assert.deepEqual(schemaOf("429"), { $ref: "#/components/schemas/AIdGetResponses401ApplicationJson" });
    assert.equal(components.schemas.AIdGetResponses401ApplicationJson, problem);
    assert.deepEqual(schemaOf("200"), { $ref: "#/components/schemas/AIdGetResponses401ApplicationJsonPropertiesId" });
    assert.equal(warnings.list.length, 4);
    assert.ok(warnings.list.every((w) => w.kind === "ref" && w.pointer.startsWith("/paths/~1a~1")));
  });

  it("makes a schema inside another schema (its definitions, a property, a branch) a component too", () => {
    const inner = { type: "string" };
    const d = openapi(
      {},
      {
        components: {
          schemas: {
            A: { definitions: { B: inner }, properties: { b: { $ref: "#/components/schemas/A/definitions/B" } } },
          },
        },
      },
    );
    hoistPathRefs(d, new Warnings("t.yaml"));
    const schemas = (d.components as { schemas: { [k: string]: { properties?: { b: unknown } } } }).schemas;
    assert.deepEqual(schemas.A.properties!.b, { $ref: "#/components/schemas/SchemasADefinitionsB" });
    assert.equal(schemas.SchemasADefinitionsB, inner);
  });

  it("leaves $refs to components, and documents without such refs, as they are", () => {
    const d = openapi(
      { "/x": { get: { parameters: [{ $ref: "#/components/parameters/P" }], responses: {} } } },
      { components: { parameters: { P: page } } },
    );
    const before = JSON.stringify(d);
    hoistPathRefs(d, new Warnings("t.yaml"));
    assert.equal(JSON.stringify(d), before);
  });
});

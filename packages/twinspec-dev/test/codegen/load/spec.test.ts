// spec.ts: loading a document and following local $refs.
import assert from "node:assert/strict";
import { Warnings } from "../../../src/codegen/load/diagnostics.js";
import {
  deref,
  escapePointer,
  isObject,
  loadDocument,
  loadSpec,
  SpecError,
  type Json,
  type JsonObject,
} from "../../../src/codegen/load/spec.js";
import { FILE, openapi, throwsSpecError } from "../support.js";

describe("loadDocument", () => {
  it("reads YAML and JSON documents", () => {
    assert.deepEqual(Object.keys(loadDocument("test/fixtures/minimal-3.0.yaml").paths as object), ["/ping"]);
    assert.equal(loadDocument("test/fixtures/minimal-3.1.json").openapi, "3.1.0");
  });

  const refused: [string, string, RegExp][] = [
    [
      "test/fixtures/swagger-2.yaml",
      "/swagger",
      /Swagger 2\.0 documents are not supported; convert it to OpenAPI 3 first/,
    ],
    ["test/fixtures/no-paths.yaml", "/paths", /missing paths object/],
    ["test/fixtures/not-an-object.yaml", "", /not an object/],
  ];
  for (const [file, pointer, message] of refused) {
    it(`refuses ${file} at #${pointer}`, () => {
      assert.throws(
        () => loadDocument(file),
        (error: unknown) => {
          assert.ok(error instanceof SpecError);
          assert.deepEqual([error.file, error.pointer], [file, pointer]);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});

describe("escapePointer and isObject", () => {
  const pointers: [string, string][] = [
    ["/curators/{id}", "~1curators~1{id}"],
    ["a~b", "a~0b"],
    ["~/", "~0~1"],
  ];
  for (const [segment, expected] of pointers)
    it(`escapePointer(${segment}) → ${expected}`, () => assert.equal(escapePointer(segment), expected));

  const objects: [unknown, boolean][] = [
    [{}, true],
    [[], false],
    [null, false],
    ["x", false],
    [undefined, false],
  ];
  for (const [value, expected] of objects)
    it(`isObject(${JSON.stringify(value)}) → ${expected}`, () => assert.equal(isObject(value), expected));
});

describe("deref", () => {
  const doc = openapi(
    {},
    {
      components: {
        schemas: {
          A: { $ref: "#/components/schemas/B" },
          B: { type: "string" },
          "a/b~c": { type: "integer" },
          "{id} x": { type: "number" },
          "100%": { type: "null" },
          Loop: { $ref: "#/components/schemas/Loop" },
          Scalar: 3,
        },
      },
      "x-list": [{ type: "boolean" }],
    },
  );

  const found: [string, Json, Json, string][] = [
    ["a non-reference object as it is", { type: "null" }, { type: "null" }, "/here"],
    ["one hop", { $ref: "#/components/schemas/B" }, { type: "string" }, "/components/schemas/B"],
    [
      "a chain of hops, reporting the last pointer",
      { $ref: "#/components/schemas/A" },
      { type: "string" },
      "/components/schemas/B",
    ],
    ["escaped segments", { $ref: "#/components/schemas/a~1b~0c" }, { type: "integer" }, "/components/schemas/a~1b~0c"],
    ["array indexes", { $ref: "#/x-list/0" }, { type: "boolean" }, "/x-list/0"],
    [
      "percent-encoded segments (a URI fragment)",
      { $ref: "#/components/schemas/%7Bid%7D%20x" },
      { type: "number" },
      "/components/schemas/%7Bid%7D%20x",
    ],
    ["a % that is not an escape", { $ref: "#/components/schemas/100%" }, { type: "null" }, "/components/schemas/100%"],
  ];
  for (const [name, value, expected, pointer] of found) {
    it(`follows ${name}`, () => assert.deepEqual(deref(doc, value, FILE, "/here"), { value: expected, pointer }));
  }

  const refused: [string, Json, string, RegExp][] = [
    ["a circular $ref", { $ref: "#/components/schemas/Loop" }, "/here", /circular \$ref/],
    ["a remote $ref", { $ref: "other.yaml#/components/schemas/B" }, "/here", /only local \$refs/],
    ["a $ref to nothing", { $ref: "#/components/schemas/Nope" }, "/components/schemas/Nope", /points at nothing/],
    [
      "a $ref to a non-object",
      { $ref: "#/components/schemas/Scalar" },
      "/components/schemas/Scalar",
      /expected an object/,
    ],
    ["a non-object value", [1, 2], "/here", /expected an object/],
  ];
  for (const [name, value, pointer, message] of refused) {
    it(`refuses ${name}`, () => throwsSpecError(() => deref(doc, value, FILE, "/here"), pointer, message));
  }
});

describe("loadSpec: what stops generation, and what it reads past", () => {
  const fatal: [string, string, RegExp][] = [
    [
      "ref-loop.yaml",
      "/paths/~1x/post/requestBody/content/application~1json/schema",
      /\$ref "#\/components\/schemas\/A" leads only to \$refs in a loop \(#\/components\/schemas\/A → #\/components\/schemas\/B → #\/components\/schemas\/A\); make one of them a schema/,
    ],
    ["external.yaml", "/paths/~1x/get/responses/200", /\$ref "\.\/nowhere\.yaml#\/Ok" cannot be resolved/],
  ];
  for (const [name, pointer, message] of fatal) {
    it(`stops at ${name}, naming the pointer and the target`, async () => {
      const file = `test/fixtures/lenient/${name}`;
      await assert.rejects(loadSpec(file), (error: unknown) => {
        assert.ok(error instanceof SpecError, String(error));
        assert.deepEqual([error.file, error.pointer], [file, pointer]);
        assert.match(error.reason, message);
        return true;
      });
    });
  }

  it("leaves out a discriminator mapping entry whose target does not exist, with a warning naming it", async () => {
    const warnings = new Warnings("missing-mapping.yaml");
    const doc = await loadSpec("test/fixtures/lenient/missing-mapping.yaml", warnings);
    const pet = ((doc.components as JsonObject).schemas as JsonObject).Pet as { discriminator: { mapping: object } };
    assert.deepEqual(pet.discriminator.mapping, {});
    assert.deepEqual(
      warnings.list.map((w) => w.pointer),
      ["/components/schemas/Pet/discriminator/mapping/ghost"],
    );
    assert.match(warnings.list[0].message, /\$ref "#\/components\/schemas\/Ghost" cannot be resolved .*: left out$/);
  });

  it("reads YAML merge keys and a version without its patch (with a warning)", async () => {
    const warnings = new Warnings("merge-keys.yaml");
    const doc = await loadSpec("test/fixtures/lenient/merge-keys.yaml", warnings);
    const ok = (doc.paths as { [p: string]: { get: { responses: { "200": { content: unknown } } } } })["/säge/{id}"].get
      .responses["200"];
    assert.deepEqual(Object.keys(ok.content as object), ["application/json"]);
    assert.equal(doc.openapi, "3.0.3");
    assert.deepEqual(
      warnings.list.map((w) => [w.pointer, w.message]),
      [["/openapi", 'openapi "3.0" read as 3.0.3']],
    );
  });
});

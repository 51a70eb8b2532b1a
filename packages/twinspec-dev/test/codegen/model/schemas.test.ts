// schemas: OpenAPI schema objects → JSON Schema for ajv, and the behaviour of the validators compiled from them.
import assert from "node:assert/strict";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { Warnings } from "../../../src/codegen/load/diagnostics.js";
import { patternFlags, scanSchemas, toJsonSchema, type Direction } from "../../../src/codegen/model/schemas.js";
import type { Json, JsonObject } from "../../../src/codegen/load/spec.js";
import { compileValidators } from "../../../src/codegen/emit/validators.js";
import { FILE, loadValidators, openapi } from "../support.js";

const ctx = (direction: Direction = "request", v30 = false, doc: JsonObject = openapi({})) => ({ doc, direction, v30 });

describe("toJsonSchema", () => {
  const cases: [string, Json, Json, ReturnType<typeof ctx>?][] = [
    [
      "rebases local $refs onto the direction's copy",
      { $ref: "#/components/schemas/A" },
      { $ref: "request.json#/components/schemas/A" },
    ],
    [
      "…the response copy for responses",
      { items: { $ref: "#/components/schemas/A" } },
      { items: { $ref: "response.json#/components/schemas/A" } },
      ctx("response"),
    ],
    [
      "3.0 nullable widens the type",
      { type: "string", nullable: true },
      { type: ["string", "null"] },
      ctx("request", true),
    ],
    [
      "3.0 nullable enum gains null",
      { type: "string", enum: ["a"], nullable: true },
      { type: ["string", "null"], enum: ["a", null] },
      ctx("request", true),
    ],
    [
      "nullable without a plain type wraps in anyOf",
      { allOf: [{ type: "object" }], nullable: true },
      { anyOf: [{ allOf: [{ type: "object" }] }, { type: "null" }] },
    ],
    [
      "3.0 exclusiveMinimum: true moves the bound",
      { type: "number", minimum: 5, exclusiveMinimum: true },
      { type: "number", exclusiveMinimum: 5 },
      ctx("request", true),
    ],
    [
      "3.0 exclusiveMaximum: false is dropped",
      { type: "number", maximum: 5, exclusiveMaximum: false },
      { type: "number", maximum: 5 },
      ctx("request", true),
    ],
    [
      "3.1 numeric exclusiveMinimum stays",
      { type: "number", exclusiveMinimum: 5 },
      { type: "number", exclusiveMinimum: 5 },
    ],
    [
      "annotations ajv must not see are dropped",
      { type: "string", example: "x", xml: { name: "a" }, "x-ext": 1, $id: "urn:x" },
      { type: "string" },
    ],
    [
      "property names are never mistaken for keywords",
      { properties: { example: { type: "string" }, nullable: { type: "boolean" } } },
      { properties: { example: { type: "string" }, nullable: { type: "boolean" } } },
    ],
    [
      "enum and default values are kept verbatim",
      { enum: [{ $ref: "#/x" }], default: { nullable: true } },
      { enum: [{ $ref: "#/x" }], default: { nullable: true } },
    ],
    [
      "readOnly fields are refused in requests and not required there",
      {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "string", readOnly: true }, name: { type: "string" } },
      },
      {
        type: "object",
        required: ["name"],
        properties: { id: { type: "string", readOnly: true, "x-twinspec-read-only": true }, name: { type: "string" } },
      },
    ],
    [
      "writeOnly fields are refused in responses and not required there",
      { type: "object", required: ["password"], properties: { password: { type: "string", writeOnly: true } } },
      {
        type: "object",
        required: [],
        properties: { password: { type: "string", writeOnly: true, "x-twinspec-write-only": true } },
      },
      ctx("response"),
    ],
  ];
  for (const [name, input, expected, context] of cases)
    it(name, () => assert.deepEqual(toJsonSchema(input, context ?? ctx()), expected));
});

describe("toJsonSchema: lint-level slips repaired for ajv, with a warning at their pointer", () => {
  // [name, input (at /s), output, pointer of the warning, message]
  const cases: [string, Json, Json, string, RegExp][] = [
    [
      "$dynamicRef is dropped: what it stands for is not checked",
      { items: { $dynamicRef: "#t" } },
      { items: {} },
      "/s/items/$dynamicRef",
      /\$dynamicRef is not supported/,
    ],
    ["a type that is not a JSON type", { type: "file" }, {}, "/s/type", /"file" is Swagger 2\.0/],
    [
      "required: true on a property (Swagger habit)",
      { properties: { a: { type: "string", required: true } } },
      { properties: { a: { type: "string" } } },
      "/s/properties/a/required",
      /required: true is not a valid value/,
    ],
    [
      "an empty allOf",
      { allOf: [], type: "object" },
      { type: "object" },
      "/s/allOf",
      /allOf: \[\] is not a valid value/,
    ],
    ["a negative maxLength", { type: "string", maxLength: -1 }, { type: "string" }, "/s/maxLength", /maxLength/],
    [
      "a pattern that is no regular expression",
      { type: "string", pattern: "[" },
      { type: "string" },
      "/s/pattern",
      /is not a regular expression/,
    ],
    [
      "a pattern valid only without the unicode flag is kept",
      { type: "string", pattern: "^[\\w-.]+$" },
      { type: "string", pattern: "^[\\w-.]+$" },
      "/s/pattern",
      /compiled without it/,
    ],
    [
      "a patternProperties key that is no regular expression",
      { patternProperties: { "(": { type: "string" }, "^a": {} } },
      { patternProperties: { "^a": {} } },
      "/s/patternProperties/(",
      /not a regular expression/,
    ],
    [
      "nullable in 3.1 is honoured, with a warning",
      { type: "string", nullable: true },
      { type: ["string", "null"] },
      "/s/nullable",
      /nullable is OpenAPI 3\.0/,
    ],
    [
      "items as an array in 3.1 becomes prefixItems",
      { items: [{ type: "string" }] },
      { prefixItems: [{ type: "string" }] },
      "/s/items",
      /prefixItems/,
    ],
  ];
  for (const [name, input, expected, pointer, message] of cases) {
    it(name, () => {
      const warnings = new Warnings("t.yaml");
      assert.deepEqual(toJsonSchema(input, { ...ctx(), warnings }, "/s"), expected);
      assert.deepEqual(
        warnings.list.map((w) => w.pointer),
        [pointer],
      );
      assert.match(warnings.list[0].message, message);
    });
  }

  it("patternFlags: u when ajv's unicode flag works, '' when only without it, undefined when never", () => {
    assert.deepEqual(["^a+$", "[\\w-.]", "\\p{Graph}", "["].map(patternFlags), ["u", "", "", undefined]);
  });

  it("scanSchemas finds formats and whether some pattern needs the lenient engine", () => {
    assert.deepEqual(scanSchemas({ a: { format: "uuid", pattern: "^a$" } }), {
      formats: new Set(["uuid"]),
      nonUnicodePatterns: false,
    });
    assert.equal(scanSchemas({ a: { pattern: "[\\w-.]" } }).nonUnicodePatterns, true);
  });
});

describe("compiled validators: schema features", () => {
  const schemas = {
    Pet: {
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
      discriminator: { propertyName: "kind", mapping: { kitty: "#/components/schemas/Cat" } },
    },
    Cat: {
      type: "object",
      required: ["kind", "lives"],
      properties: { kind: { type: "string" }, lives: { type: "integer", format: "int32" } },
    },
    Dog: { type: "object", required: ["kind"], properties: { kind: { type: "string" }, bark: { type: "boolean" } } },
    User: {
      type: "object",
      additionalProperties: false,
      required: ["id", "email", "password"],
      properties: {
        id: { type: "string", format: "uuid", readOnly: true },
        email: { type: "string", format: "email" },
        password: { type: "string", writeOnly: true },
        site: { type: "string", format: "uri" },
        born: { type: "string", format: "date-time" },
        big: { type: "integer", format: "int64" },
        money: { type: "string", format: "currency" },
        tags: { type: "object", additionalProperties: { type: "integer" } },
        score: { type: "number", minimum: 0, exclusiveMinimum: true },
        nick: { type: "string", nullable: true },
        mixed: { anyOf: [{ type: "string" }, { type: "integer" }] },
        all: {
          allOf: [
            { type: "object", required: ["a"] },
            { type: "object", required: ["b"] },
          ],
        },
      },
    },
  };
  const json = (schema: Json) => ({ content: { "application/json": { schema } } });
  const doc = (version: string) =>
    openapi(
      {
        "/pets": {
          post: {
            operationId: "pet",
            requestBody: json({ $ref: "#/components/schemas/Pet" }),
            responses: { "200": { description: "ok", ...json({ $ref: "#/components/schemas/Pet" }) } },
          },
        },
        "/users": {
          post: {
            operationId: "user",
            requestBody: json({ $ref: "#/components/schemas/User" }),
            responses: { "201": { description: "ok", ...json({ $ref: "#/components/schemas/User" }) } },
          },
        },
      },
      { components: { schemas } },
      version,
    );
  for (const version of ["3.0.3", "3.1.0"]) {
    const d = doc(version);
    const compiled = compileValidators(d, collectOperations(d, FILE));
    const v = loadValidators(compiled.source);
    const req = (id: string) => v[compiled.byOperation.get(id)!.body["application/json"]];
    const res = (id: string, status: string) => v[compiled.byOperation.get(id)!.responses[status]["application/json"]];
    const user = { email: "a@example.com", password: "pw" };
    const errorsOf = (validate: (typeof v)[string], value: unknown) =>
      validate(value)
        ? []
        : (validate.errors ?? []).filter((e) => e.keyword !== "if").map((e) => `${e.instancePath} ${e.message}`);
    const cases: [string, () => string[], string[]][] = [
      [
        "discriminator: the named branch applies (mapping)",
        () => errorsOf(req("pet"), { kind: "kitty", lives: 9 }),
        [],
      ],
      ["discriminator: the branch by schema name", () => errorsOf(req("pet"), { kind: "Dog" }), []],
      [
        "discriminator: the named branch's errors only",
        () => errorsOf(req("pet"), { kind: "kitty" }),
        [" must have required property 'lives'"],
      ],
      [
        "discriminator: an unknown value is named",
        () => errorsOf(req("pet"), { kind: "Cow" }),
        ["/kind must be equal to one of the allowed values"],
      ],
      [
        "int32 bounds",
        () => errorsOf(req("pet"), { kind: "kitty", lives: 2 ** 31 }),
        ['/lives must match format "int32"'],
      ],
      [
        "a valid user",
        () =>
          errorsOf(req("user"), {
            ...user,
            site: "https://x.example/a",
            born: "2020-01-01T00:00:00Z",
            big: 2 ** 40,
            money: "EUR",
            tags: { a: 1 },
            score: 1,
            nick: null,
            mixed: 3,
            all: { a: 1, b: 2 },
          }),
        [],
      ],
      [
        "readOnly id in a request",
        () => errorsOf(req("user"), { ...user, id: "7d444840-9dc0-11d1-b245-5ffdce74fad2" }),
        ["/id is read-only and cannot be sent"],
      ],
      [
        "readOnly id is required only in responses",
        () => errorsOf(res("user", "201"), { email: "a@example.com" }),
        [" must have required property 'id'"],
      ],
      [
        "writeOnly password in a response",
        () =>
          errorsOf(res("user", "201"), {
            id: "7d444840-9dc0-11d1-b245-5ffdce74fad2",
            email: "a@example.com",
            password: "x",
          }),
        ["/password is write-only and must not be answered"],
      ],
      [
        "formats: email, uri, date-time, uuid",
        () => errorsOf(res("user", "201"), { id: "nope", email: "no", site: "::", born: "yesterday" }).sort(),
        [
          '/born must match format "date-time"',
          '/email must match format "email"',
          '/id must match format "uuid"',
          '/site must match format "uri"',
        ],
      ],
      [
        "additionalProperties: false and typed additionalProperties",
        () => errorsOf(req("user"), { ...user, x: 1, tags: { a: "1" } }).sort(),
        [" must NOT have additional properties", "/tags/a must be integer"],
      ],
      [
        "exclusive minimum (3.0 boolean form converted)",
        () => errorsOf(req("user"), { ...user, score: 0 }),
        ["/score must be > 0"],
      ],
      // nullable is 3.0; a 3.1 document that still says it means the same, so it is honoured there too.
      ["nullable allows null", () => errorsOf(req("user"), { ...user, nick: null }), []],
      [
        "nullable still checks the type",
        () => errorsOf(req("user"), { ...user, nick: 1 }),
        [version === "3.0.3" ? "/nick must be string,null" : "/nick must be string,null"],
      ],
      [
        "anyOf and allOf",
        () =>
          errorsOf(req("user"), { ...user, mixed: true, all: { a: 1 } })
            .filter((e) => !e.includes("anyOf"))
            .sort(),
        ["/all must have required property 'b'", "/mixed must be integer", "/mixed must be string"],
      ],
    ];
    for (const [name, run, expected] of cases) it(`${version}: ${name}`, () => assert.deepEqual(run(), expected));
  }
});

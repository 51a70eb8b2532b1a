// compileValidators: standalone ajv code per operation part, loaded as the server loads it.
import assert from "node:assert/strict";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { compileValidators, parametersSchema, validatorName } from "../../../src/codegen/emit/validators.js";
import { fieldErrors } from "../../../../twinspec/src/runtime/validation.js";
import { FILE, OK, openapi, loadValidators } from "../support.js";

const doc = openapi(
  {
    "/curators/{id}": {
      parameters: [{ name: "id", in: "path", schema: { type: "integer", minimum: 1 } }],
      get: { operationId: "getCurator", responses: OK },
      put: {
        operationId: "putCurator",
        parameters: [
          { name: "dryRun", in: "query", schema: { type: "boolean" } },
          { name: "If-Match", in: "header", required: true, schema: { type: "string" } },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/NewCurator" } },
            "text/plain": { schema: { type: "string", maxLength: 5 } },
          },
        },
        responses: OK,
      },
    },
    "/ping": { get: { operationId: "ping", responses: OK } },
  },
  {
    components: {
      schemas: {
        NewCurator: {
          type: "object",
          additionalProperties: false,
          required: ["name", "email"],
          properties: {
            name: { type: "string", minLength: 1 },
            email: { type: "string", format: "email" },
            tier: { $ref: "#/components/schemas/Tier" },
            address: { $ref: "#/components/schemas/Address" },
          },
        },
        Tier: { type: "string", enum: ["free", "pro"] },
        Address: { type: "object", required: ["zip"], properties: { zip: { type: "string", pattern: "^[0-9]{5}$" } } },
      },
    },
  },
);
const operations = collectOperations(doc, FILE);
const compiled = compileValidators(doc, operations);
const validators = loadValidators(compiled.source);

describe("compileValidators: names", () => {
  it("exports one validator per distinct schema: parameter locations in use and body media types, nothing for parameterless operations", () => {
    assert.deepEqual(compiled.names, ["path_id", "query_dryRun", "header_ifMatch", "NewCurator", "putCurator_body1"]);
    // putCurator's path parameters are getCurator's (declared at path level): one validator, named by them, serves both.
    assert.deepEqual(compiled.byOperation.get("putCurator"), {
      params: { path: "path_id", query: "query_dryRun", header: "header_ifMatch" },
      body: { "application/json": "NewCurator", "text/plain": "putCurator_body1" },
      responses: { "200": {} },
    });
    assert.deepEqual(Object.keys(validators).sort(), [...compiled.names].sort());
    for (const name of compiled.names) assert.equal(typeof validators[name], "function", name);
  });

  const named = (paths: JsonObject, schemas: JsonObject) => {
    const d = openapi(paths, { components: { schemas } });
    const result = compileValidators(d, collectOperations(d, FILE), FILE);
    return { ...result, loaded: loadValidators(result.source) };
  };
  const json = (schema: JsonObject) => ({ content: { "application/json": { schema } } });
  const PROBLEM = { type: "object", required: ["title"], properties: { title: { type: "string" } } };

  it("names a body that is a component's $ref after the component, one validator for every operation using it", () => {
    const problem = { "400": { description: "bad", ...json({ $ref: "#/components/schemas/Problem" }) } };
    const { names, byOperation, loaded } = named(
      {
        "/a": { get: { operationId: "getA", responses: problem } },
        "/b": {
          get: {
            operationId: "getB",
            responses: { ...problem, "200": { description: "ok", ...json({ type: "string" }) } },
          },
        },
      },
      { Problem: PROBLEM },
    );
    assert.deepEqual(names, ["Problem", "getB_res200"]);
    assert.equal(byOperation.get("getA")!.responses["400"]["application/json"], "Problem");
    assert.equal(byOperation.get("getB")!.responses["400"]["application/json"], "Problem");
    assert.deepEqual([loaded.Problem({ title: "t" }), loaded.Problem({})], [true, false]);
  });

  it("a component read in both directions has a validator for each, named with the direction", () => {
    const pet = json({ $ref: "#/components/schemas/Pet" });
    const readOnlyId = {
      type: "object",
      properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
    };
    const { names, loaded } = named(
      {
        "/pets": {
          post: { operationId: "addPet", requestBody: pet, responses: { "200": { description: "ok", ...pet } } },
        },
      },
      { Pet: readOnlyId },
    );
    assert.deepEqual(names, ["Pet_request", "Pet_response"]);
    assert.deepEqual([loaded.Pet_request({ id: 1 }), loaded.Pet_response({ id: 1 })], [false, true]);
  });

  it("makes a component's name an identifier, and falls back to the operation's name (or a number) when a name is taken", () => {
    const ok = (schema: JsonObject) => ({ "200": { description: "ok", ...json(schema) } });
    const { names, byOperation } = named(
      {
        "/a": { get: { operationId: "a", responses: ok({ $ref: "#/components/schemas/b_res200" }) } },
        "/b": { get: { operationId: "b", responses: ok({ type: "integer" }) } },
        "/c": { get: { operationId: "c", responses: ok({ $ref: "#/components/schemas/Thing.v2" }) } },
        "/d": { get: { operationId: "d", responses: ok({ type: "boolean" }) } },
        "/e": { get: { operationId: "e", responses: ok({ $ref: "#/components/schemas/d_res200" }) } },
      },
      { b_res200: { type: "string" }, "Thing.v2": { type: "number" }, d_res200: { type: "null" } },
    );
    assert.deepEqual(names, ["b_res200", "b_res200_2", "Thing_v2", "d_res200", "e_res200"]);
    assert.equal(byOperation.get("b")!.responses["200"]["application/json"], "b_res200_2");
  });

  it("validatorName joins the operationId and the part", () => {
    assert.equal(validatorName("getCurator", "query"), "getCurator_query");
    assert.equal(validatorName("getCurator", "body3"), "getCurator_body3");
  });

  it("parametersSchema lists the location's parameters and only the required ones as required", () => {
    const put = operations.find((o) => o.operationId === "putCurator")!;
    assert.deepEqual(parametersSchema(put, "query"), {
      type: "object",
      properties: { dryRun: { type: "boolean" } },
      required: [],
    });
    assert.deepEqual(parametersSchema(put, "header"), {
      type: "object",
      properties: { "If-Match": { type: "string" } },
      required: ["If-Match"],
    });
    assert.deepEqual(parametersSchema(put, "cookie"), { type: "object", properties: {}, required: [] });
  });
});

describe("compileValidators: behaviour of the emitted code", () => {
  const valid = { name: "Ada", email: "ada@example.com" };
  const cases: [string, string, unknown, string[]][] = [
    // [validator, description, input, expected "instancePath keyword" of each error ([] = valid)]
    ["path_id", "a positive integer id", { id: 5 }, []],
    ["path_id", "a missing id", {}, [" required"]],
    ["path_id", "id below minimum", { id: 0 }, ["/id minimum"]],
    ["path_id", "an uncoerced string id", { id: "5" }, ["/id type"]],
    ["query_dryRun", "no query at all (optional)", {}, []],
    ["query_dryRun", "unknown query parameters (not forbidden)", { other: "x" }, []],
    ["query_dryRun", "a string where a boolean is declared", { dryRun: "yes" }, ["/dryRun type"]],
    ["header_ifMatch", "a missing required header", {}, [" required"]],
    ["NewCurator", "a valid body", valid, []],
    ["NewCurator", "a valid body with $ref'd nested parts", { ...valid, tier: "pro", address: { zip: "12345" } }, []],
    ["NewCurator", "a missing required field", { name: "Ada" }, [" required"]],
    ["NewCurator", "an unknown field", { ...valid, nick: "a" }, [" additionalProperties"]],
    ["NewCurator", "a malformed email", { ...valid, email: "not-an-email" }, ["/email format"]],
    ["NewCurator", "a value outside an enum in components", { ...valid, tier: "gold" }, ["/tier enum"]],
    ["NewCurator", "an error inside a nested $ref", { ...valid, address: { zip: "1" } }, ["/address/zip pattern"]],
    [
      "NewCurator",
      "all errors at once (allErrors)",
      { email: 1, nick: 2 },
      [" required", " additionalProperties", "/email type"],
    ],
    ["putCurator_body1", "text within maxLength", "abc", []],
    ["putCurator_body1", "text over maxLength", "abcdef", [" maxLength"]],
  ];
  for (const [name, description, input, expected] of cases) {
    it(`${name}: ${description} ${expected.length === 0 ? "passes" : `fails with ${expected.join(", ")}`}`, () => {
      const validate = validators[name];
      const ok = validate(input);
      const got = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
      assert.equal(ok, expected.length === 0);
      assert.deepEqual([...got].sort(), [...expected].sort());
    });
  }

  it("its errors map to field pointers through fieldErrors", () => {
    const validate = validators.NewCurator;
    assert.equal(validate({ email: "ada@example.com", tier: "gold", extra: true }), false);
    assert.deepEqual(
      fieldErrors("body", validate.errors).sort((a, b) => a.pointer.localeCompare(b.pointer)),
      [
        { in: "body", pointer: "/extra", message: "is not a known field" },
        { in: "body", pointer: "/name", message: "is required" },
        { in: "body", pointer: "/tier", message: 'must be one of "free", "pro"' },
      ],
    );
  });
});

describe("compileValidators: dialect by OpenAPI version", () => {
  const one = (version: string, schema: JsonObject) => {
    const d = openapi(
      {
        "/x": {
          post: { operationId: "op", requestBody: { content: { "application/json": { schema } } }, responses: OK },
        },
      },
      {},
      version,
    );
    return loadValidators(compileValidators(d, collectOperations(d, FILE)).source).op_body0;
  };

  it("3.0: understands nullable", () => {
    const validate = one("3.0.3", { type: "string", nullable: true });
    assert.deepEqual([validate(null), validate("a"), validate(1)], [true, true, false]);
  });

  it("3.1: understands type lists and 2020-12 unevaluatedProperties", () => {
    const nullable = one("3.1.0", { type: ["string", "null"] });
    assert.deepEqual([nullable(null), nullable("a"), nullable(1)], [true, true, false]);
    const closed = one("3.1.0", { type: "object", properties: { a: {} }, unevaluatedProperties: false });
    assert.deepEqual([closed({ a: 1 }), closed({ a: 1, b: 2 })], [true, false]);
  });
});

describe("compileValidators: leniency", () => {
  const body = (schema: JsonObject, version = "3.0.3") => {
    const d = openapi(
      {
        "/x": {
          post: { operationId: "op", requestBody: { content: { "application/json": { schema } } }, responses: OK },
        },
      },
      {},
      version,
    );
    const compiled = compileValidators(d, collectOperations(d, FILE), FILE);
    return { compiled, validate: loadValidators(compiled.source).op_body0 };
  };

  it("compiles a pattern that is invalid under the unicode flag without it, in the emitted code too", () => {
    const { compiled, validate } = body({ type: "string", pattern: "^[\\w\\:]+$" });
    assert.deepEqual([validate("a:b"), validate("a b")], [true, false]);
    assert.match(compiled.warnings[0].message, /compiled without it/);
    assert.match(compiled.source, /catch \{ return new RegExp\(pattern\); \}/);
  });

  it("keeps ajv's own RegExp when every pattern is valid under the unicode flag", () => {
    assert.doesNotMatch(body({ type: "string", pattern: "^a$" }).compiled.source, /catch \{ return new RegExp/);
  });

  it("leaves a part whose schema ajv cannot compile unvalidated, with a warning naming it; the rest is compiled", () => {
    const d = openapi({
      "/x": {
        post: {
          operationId: "op",
          parameters: [{ name: "q", in: "query", schema: { type: "integer" } }],
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } } },
          responses: OK,
        },
      },
    });
    const compiled = compileValidators(d, collectOperations(d, FILE), FILE);
    assert.deepEqual(compiled.byOperation.get("op"), {
      params: { query: "query_q" },
      body: {},
      responses: { "200": {} },
    });
    assert.deepEqual(
      compiled.warnings.map((w) => w.pointer),
      ["/paths/~1x/post/requestBody/content/application~1json/schema"],
    );
    assert.match(compiled.warnings[0].message, /not validated: ajv cannot compile this schema/);
    assert.equal(loadValidators(compiled.source).query_q({ q: "x" }), false);
  });
});

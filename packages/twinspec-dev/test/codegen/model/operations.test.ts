// collectOperations: operation ids, parameters, route paths and coercion kinds.
import assert from "node:assert/strict";
import {
  collectOperations,
  deriveOperationId,
  identifier,
  type Parameter,
} from "../../../src/codegen/model/operations.js";
import type { Json, JsonObject } from "../../../src/codegen/load/spec.js";
import { FILE, OK, openapi, warnsOnce, withWarnings } from "../support.js";

const collect = (doc: JsonObject) => collectOperations(doc, FILE);
const collectWarned = (doc: JsonObject) => withWarnings((w) => collectOperations(doc, FILE, w));
/** The only operation of a document with one path and one method. */
const single = (doc: JsonObject) => {
  const ops = collect(doc);
  assert.equal(ops.length, 1);
  return ops[0];
};
const withParams = (parameters: Json[], path = "/x") => openapi({ [path]: { get: { parameters, responses: OK } } });
const brief = (params: Parameter[]) => params.map((p) => `${p.in}:${p.name}:${p.type}:${p.required}`);

describe("identifier", () => {
  const cases: [string, string][] = [
    ["get /a-b/{c}", "getABC"],
    ["Hello world", "helloWorld"],
    ["snake_case_name", "snakeCaseName"],
    ["42 things", "_42Things"],
    ["--- !!", "_"],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${expected}`, () => assert.equal(identifier(text), expected));
  }
});

describe("deriveOperationId", () => {
  const cases: [string, string, string][] = [
    ["get", "/curators", "getCurators"],
    ["get", "/curators/{curatorId}", "getCuratorsByCuratorId"],
    ["delete", "/curators/{curator-id}/orders", "deleteCuratorsByCuratorIdOrders"],
    ["post", "/", "post"],
    ["patch", "/v1/carts/{id}:checkout", "patchV1CartsIdCheckout"],
  ];
  for (const [method, path, expected] of cases) {
    it(`${method} ${path} → ${expected}`, () => assert.equal(deriveOperationId(method, path), expected));
  }
});

describe("collectOperations: operation ids", () => {
  it("keeps explicit operationIds and derives the missing ones", () => {
    const doc = openapi({
      "/curators/{id}": {
        parameters: [{ name: "id", in: "path", schema: { type: "string" } }],
        get: { operationId: "getCurator", responses: OK },
        delete: { responses: OK },
      },
    });
    assert.deepEqual(
      collect(doc).map((o) => [o.method, o.operationId]),
      [
        ["get", "getCurator"],
        ["delete", "deleteCuratorsById"],
      ],
    );
  });

  it("lists methods in METHODS order and ignores non-method keys of a path item", () => {
    const doc = openapi({
      "/x": { summary: "s", "x-ext": { get: 1 }, post: { responses: OK }, get: { responses: OK } },
    });
    assert.deepEqual(
      collect(doc).map((o) => o.method),
      ["get", "post"],
    );
  });

  it("reads a path item through $ref", () => {
    const doc = openapi(
      { "/x": { $ref: "#/components/pathItems/X" } },
      { components: { pathItems: { X: { put: { responses: OK } } } } },
    );
    assert.deepEqual(
      collect(doc).map((o) => `${o.method} ${o.path} ${o.operationId}`),
      ["put /x putX"],
    );
  });

  // [name, paths, expected operationIds, pointer of the one warning]
  const renamed: [string, JsonObject, string[], string][] = [
    [
      "a duplicate explicit operationId: the second gets a suffix",
      { "/a": { get: { operationId: "same", responses: OK } }, "/b": { get: { operationId: "same", responses: OK } } },
      ["same", "same_2"],
      "/paths/~1b/get/operationId",
    ],
    [
      "a derived operationId that collides with an explicit one",
      { "/a": { get: { operationId: "getB", responses: OK } }, "/b": { get: { responses: OK } } },
      ["getB", "getB_2"],
      "/paths/~1b/get/operationId",
    ],
    [
      "operationIds equal once made identifiers",
      { "/a": { get: { operationId: "get-x", responses: OK } }, "/b": { get: { operationId: "GetX", responses: OK } } },
      ["get-x", "GetX_2"],
      "/paths/~1b/get/operationId",
    ],
    [
      "a suffix that is itself taken",
      {
        "/a": { get: { operationId: "x", responses: OK } },
        "/b": { get: { operationId: "x_2", responses: OK } },
        "/c": { get: { operationId: "x", responses: OK } },
      },
      ["x", "x_2", "x_3"],
      "/paths/~1c/get/operationId",
    ],
    [
      "an operationId that is not a string: derived",
      { "/a": { get: { operationId: 42, responses: OK } } },
      ["getA"],
      "/paths/~1a/get/operationId",
    ],
  ];
  for (const [name, paths, ids, pointer] of renamed) {
    it(`names uniquely, with a warning: ${name}`, () => {
      const doc = openapi(paths);
      const { value, warnings } = collectWarned(doc);
      assert.deepEqual(
        value.map((o) => o.operationId),
        ids,
      );
      warnsOnce(warnings, pointer, /operationId/);
    });
  }

  it("writes a renamed explicit operationId into the document, so openapi-typescript types it under that name", () => {
    const doc = openapi({
      "/a": { get: { operationId: "same", responses: OK } },
      "/b": { get: { operationId: "same", responses: OK } },
    });
    collectWarned(doc);
    assert.equal(((doc.paths as JsonObject)["/b"] as { get: JsonObject }).get.operationId, "same_2");
  });
});

describe("collectOperations: parameters", () => {
  it("lets an operation parameter override the path-level one with the same name and location", () => {
    const doc = openapi({
      "/x": {
        parameters: [
          { name: "limit", in: "query", schema: { type: "string" } },
          { name: "trace", in: "header", schema: { type: "string" } },
        ],
        get: {
          parameters: [{ name: "limit", in: "query", required: true, schema: { type: "integer" } }],
          responses: OK,
        },
        post: { responses: OK },
      },
    });
    const [get, post] = collect(doc);
    assert.deepEqual(brief(get.parameters), ["header:trace:string:false", "query:limit:integer:true"]);
    assert.deepEqual(get.parameters[1].schema, { type: "integer" });
    assert.deepEqual(brief(post.parameters), ["query:limit:string:false", "header:trace:string:false"]);
  });

  it("keeps a parameter's default when it has the parameter's type (the runtime hands it over), not otherwise", () => {
    const doc = openapi({
      "/x": {
        get: {
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", default: 20 } },
            { name: "page", in: "query", schema: { type: "integer", default: "1" } },
            { name: "id", in: "path", required: true, schema: { type: "string", default: "me" } },
          ],
          responses: OK,
        },
      },
    });
    assert.deepEqual(
      single(doc).parameters.map((p) => [p.name, p.default]),
      [
        ["limit", 20],
        ["page", undefined],
        ["id", undefined],
      ],
    );
  });

  it("keeps parameters with the same name in different locations", () => {
    const doc = openapi({
      "/x": {
        parameters: [{ name: "id", in: "query", schema: { type: "string" } }],
        get: { parameters: [{ name: "id", in: "header", schema: { type: "string" } }], responses: OK },
      },
    });
    assert.deepEqual(brief(single(doc).parameters), ["query:id:string:false", "header:id:string:false"]);
  });

  it("resolves $ref parameters from components", () => {
    const doc = openapi(
      { "/x": { get: { parameters: [{ $ref: "#/components/parameters/limit" }], responses: OK } } },
      {
        components: {
          parameters: { limit: { name: "limit", in: "query", schema: { type: "integer", maximum: 100 } } },
        },
      },
    );
    const [p] = single(doc).parameters;
    assert.deepEqual(p, {
      name: "limit",
      in: "query",
      required: false,
      schema: { type: "integer", maximum: 100 },
      type: "integer",
      style: "form",
      explode: true,
    });
  });

  const required: [string, JsonObject, boolean][] = [
    ["path without required", { name: "id", in: "path" }, true],
    ["path with required: false", { name: "id", in: "path", required: false }, true],
    ["query without required", { name: "q", in: "query" }, false],
    ["query with required: true", { name: "q", in: "query", required: true }, true],
    ['header with required: "yes"', { name: "h", in: "header", required: "yes" }, false],
  ];
  for (const [name, param, expected] of required) {
    it(`required: ${name} → ${expected}`, () => {
      const path = param.in === "path" ? "/x/{id}" : "/x";
      assert.equal(single(withParams([param], path)).parameters[0].required, expected);
    });
  }

  it("defaults a missing schema to {} with no coercion", () => {
    const [p] = single(withParams([{ name: "q", in: "query" }])).parameters;
    assert.deepEqual([p.schema, p.type], [{}, "none"]);
  });

  const ignored: [string, Json, string, RegExp][] = [
    ["no name", { in: "query" }, "/paths/~1x/get/parameters/0", /needs a name and in/],
    [
      "a Swagger 2 body parameter",
      { name: "b", in: "body" },
      "/paths/~1x/get/parameters/0",
      /"body" is Swagger 2\.0: use requestBody/,
    ],
  ];
  for (const [name, param, pointer, message] of ignored) {
    it(`ignores a parameter with ${name}, with a warning`, () => {
      const { value, warnings } = collectWarned(withParams([param]));
      assert.deepEqual(value[0].parameters, []);
      warnsOnce(warnings, pointer, message);
    });
  }

  const raw: [string, Json, RegExp][] = [
    [
      "content of a non-JSON media type",
      { name: "q", in: "query", content: { "text/plain": {} } },
      /exactly one JSON media type/,
    ],
    [
      "content with two media types",
      { name: "q", in: "query", content: { "application/json": {}, "application/x+json": {} } },
      /exactly one JSON media type/,
    ],
  ];
  for (const [name, param, message] of raw) {
    it(`reads a parameter with ${name} as raw text, with a warning`, () => {
      const { value, warnings } = collectWarned(withParams([param]));
      assert.deepEqual(brief(value[0].parameters), ["query:q:none:false"]);
      assert.equal(value[0].parameters[0].raw, true);
      warnsOnce(warnings, "/paths/~1x/get/parameters/0", message);
    });
  }

  it("ignores parameters that are not an array, with a warning", () => {
    const doc = openapi({ "/x": { get: { parameters: { name: "q" }, responses: OK } } });
    const { value, warnings } = collectWarned(doc);
    assert.deepEqual(value[0].parameters, []);
    warnsOnce(warnings, "/paths/~1x/get/parameters", /must be an array/);
  });
});

describe("collectOperations: parameter styles", () => {
  const str = { type: "string" };
  const arr = { type: "array", items: { type: "integer" } };
  const obj = { type: "object", properties: { a: { type: "integer" }, b: { type: "boolean" } } };
  // [location, style, explode, schema, expected: "ok" or the warning it is degraded to raw text with]
  const cases: [string, string | undefined, boolean | undefined, Json, string][] = [
    ["query", undefined, undefined, str, "ok"],
    ["query", "form", false, arr, "ok"],
    ["query", "form", true, obj, "ok"],
    ["query", "form", true, { type: "object" }, "needs declared properties"],
    ["query", "deepObject", undefined, obj, "ok"],
    ["query", "deepObject", undefined, str, "deepObject needs an object schema"],
    ["query", "spaceDelimited", false, arr, "ok"],
    ["query", "pipeDelimited", false, arr, "ok"],
    ["query", "pipeDelimited", false, str, "pipeDelimited needs an array schema"],
    ["query", "form", true, { type: "array", items: { type: "object" } }, "arrays of arrays or objects"],
    [
      "query",
      "deepObject",
      undefined,
      { type: "object", properties: { a: { type: "object" } } },
      'property "a" is an array or object',
    ],
    ["query", "matrix", undefined, str, 'style "matrix" in query is not supported'],
    ["path", undefined, undefined, arr, "ok"],
    ["path", "simple", true, obj, "ok"],
    ["path", "label", undefined, str, 'style "label" in path is not supported'],
    ["path", "matrix", undefined, str, 'style "matrix" in path is not supported'],
    ["header", "simple", undefined, arr, "ok"],
    ["header", "form", undefined, str, 'style "form" in header is not supported'],
    ["cookie", "form", undefined, str, "ok"],
    ["cookie", "form", false, arr, "ok"],
    ["cookie", "form", undefined, arr, "exploded cookie array"],
    ["cookie", "simple", undefined, str, 'style "simple" in cookie is not supported'],
  ];
  for (const [location, style, explode, schema, expected] of cases) {
    it(`${location} style ${style ?? "(default)"}${explode === undefined ? "" : ` explode ${explode}`} ${JSON.stringify(schema)}: ${expected === "ok" ? "read" : "raw text"}`, () => {
      const param: JsonObject = {
        name: "p",
        in: location,
        schema,
        ...(style ? { style } : {}),
        ...(explode === undefined ? {} : { explode }),
      };
      const doc = withParams([param], location === "path" ? "/x/{p}" : "/x");
      const { value, warnings } = collectWarned(doc);
      const [p] = value[0].parameters;
      assert.equal(p.name, "p");
      if (expected === "ok") {
        assert.deepEqual([p.raw, warnings], [undefined, []]);
        return;
      }
      assert.deepEqual([p.raw, p.type, p.schema], [true, "none", {}]);
      const pointer = `/paths/${location === "path" ? "~1x~1{p}" : "~1x"}/get/parameters/0`;
      warnsOnce(
        warnings,
        pointer,
        new RegExp(`${expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*the handler gets its raw text, unvalidated`),
      );
    });
  }

  it("records item types, property types, style and explode for the runtime", () => {
    const doc = withParams([
      { name: "ids", in: "query", schema: arr },
      { name: "filter", in: "query", style: "deepObject", schema: obj },
      { name: "tags", in: "header", schema: { type: "array", items: { type: ["number", "integer"] } } },
    ]);
    const [ids, filter, tags] = single(doc).parameters;
    assert.deepEqual([ids.type, ids.items, ids.style, ids.explode], ["array", "integer", "form", true]);
    assert.deepEqual(
      [filter.type, filter.props, filter.style, filter.explode],
      ["object", { a: "integer", b: "boolean" }, "deepObject", true],
    );
    assert.deepEqual([tags.type, tags.items, tags.style, tags.explode], ["array", "number", "simple", false]);
  });

  it("reads a JSON `content` parameter as JSON", () => {
    const [p] = single(
      withParams([{ name: "where", in: "query", content: { "application/json": { schema: obj } } }]),
    ).parameters;
    assert.deepEqual([p.type, p.schema], ["json", obj]);
  });

  it("names the component's pointer when a referenced parameter has an unsupported style", () => {
    const doc = openapi(
      { "/x": { get: { parameters: [{ $ref: "#/components/parameters/filter" }], responses: OK } } },
      {
        components: {
          parameters: { filter: { name: "filter", in: "query", style: "matrix", schema: { type: "object" } } },
        },
      },
    );
    warnsOnce(collectWarned(doc).warnings, "/components/parameters/filter", /style "matrix" in query is not supported/);
  });
});

describe("collectOperations: route paths", () => {
  const cases: [string, string[], string][] = [
    ["/curators", [], "/curators"],
    ["/curators/{curatorId}", ["curatorId"], "/curators/:curatorId"],
    ["/a/{curator-id}/b/{x.y}", ["curator-id", "x.y"], "/a/:curator_id/b/:x_y"],
  ];
  for (const [path, names, expected] of cases) {
    it(`${path} → ${expected}`, () => {
      const doc = withParams(
        names.map((name) => ({ name, in: "path", schema: { type: "string" } })),
        path,
      );
      const op = single(doc);
      assert.equal(op.path, path);
      assert.equal(op.routePath, expected);
    });
  }

  it("accepts a path parameter declared at path level", () => {
    const doc = openapi({ "/c/{id}": { parameters: [{ name: "id", in: "path" }], get: { responses: OK } } });
    assert.equal(single(doc).routePath, "/c/:id");
  });

  it("declares an undeclared path parameter as a string, in the document too, with a warning naming the operation", () => {
    const doc = withParams([], "/curators/{id}");
    const { value, warnings } = collectWarned(doc);
    assert.deepEqual(brief(value[0].parameters), ["path:id:string:true"]);
    assert.equal(value[0].routePath, "/curators/:id");
    assert.deepEqual((doc.paths as { [k: string]: { get: JsonObject } })["/curators/{id}"].get.parameters, [
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
    warnsOnce(
      warnings,
      "/paths/~1curators~1{id}/get",
      /path parameter "id" of \/curators\/\{id\} is not declared: read as a string/,
    );
  });

  it("declares a path parameter declared only in another location", () => {
    const { value, warnings } = collectWarned(withParams([{ name: "id", in: "query" }], "/c/{id}"));
    assert.deepEqual(brief(value[0].parameters), ["query:id:none:false", "path:id:string:true"]);
    warnsOnce(warnings, "/paths/~1c~1{id}/get", /"id"/);
  });

  const odd: [string, string, RegExp][] = [
    ["users", "/paths/users", /does not start with "\/": skipped/],
    ["/#Action=Describe", "/paths/~1#Action=Describe", /holds "\?" or "#"/],
    ["/export?file={f}", "/paths/~1export?file={f}", /holds "\?" or "#"/],
  ];
  for (const [path, pointer, message] of odd) {
    it(`warns about the path ${path}`, () => {
      const { warnings } = collectWarned(
        openapi({ [path]: { get: { parameters: [{ name: "f", in: "path" }], responses: OK } } }),
      );
      warnsOnce(warnings, pointer, message);
    });
  }
});

describe("collectOperations: coercion type from the schema", () => {
  const components = {
    schemas: {
      Limit: { type: "integer", minimum: 1 },
      Flag: { $ref: "#/components/schemas/RealFlag" },
      RealFlag: { type: "boolean" },
    },
  };
  const cases: [string, Json, Parameter["type"]][] = [
    ["integer", { type: "integer" }, "integer"],
    ["number", { type: "number" }, "number"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["string with format", { type: "string", format: "date" }, "string"],
    ["array of integers", { type: "array", items: { type: "integer" } }, "array"],
    ["nullable integer (3.1 type list)", { type: ["integer", "null"] }, "integer"],
    ["string or integer prefers integer", { type: ["string", "integer"] }, "integer"],
    ["number or integer is a number (4.5 must not stay a string)", { type: ["number", "integer"] }, "number"],
    ["3.0 nullable boolean", { type: "boolean", nullable: true }, "boolean"],
    ["enum of integers", { enum: [1, 2, 3] }, "integer"],
    ["enum of strings", { enum: ["a", "b"] }, "string"],
    ["allOf with a typed member", { allOf: [{ description: "x" }, { type: "integer" }] }, "integer"],
    [
      "oneOf whose branches agree",
      {
        oneOf: [
          { type: "number", maximum: 1 },
          { type: "number", minimum: 5 },
        ],
      },
      "number",
    ],
    ["no type", {}, "none"],
    ["oneOf without type", { oneOf: [{ type: "integer" }, { type: "string" }] }, "none"],
    ["$ref to an integer schema", { $ref: "#/components/schemas/Limit" }, "integer"],
    ["$ref chain to a boolean schema", { $ref: "#/components/schemas/Flag" }, "boolean"],
  ];
  for (const [name, schema, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      const doc = openapi(
        { "/x": { get: { parameters: [{ name: "q", in: "query", schema }], responses: OK } } },
        { components },
      );
      assert.equal(single(doc).parameters[0].type, expected);
    });
  }

  it("reads a parameter whose schema $ref points at nothing as raw text (loadSpec refuses such documents before)", () => {
    const doc = withParams([{ name: "q", in: "query", schema: { $ref: "#/components/schemas/Missing" } }]);
    const { value, warnings } = collectWarned(doc);
    assert.equal(value[0].parameters[0].raw, true);
    warnsOnce(warnings, "/paths/~1x/get/parameters/0", /points at nothing/);
  });
});

describe("collectOperations: paths that match the same requests", () => {
  it("warns when two templates differ only in their parameters' names", () => {
    const doc = openapi({
      "/a/{x}": { get: { parameters: [{ name: "x", in: "path" }], responses: OK } },
      "/a/{y}/": { delete: { parameters: [{ name: "y", in: "path" }], responses: OK } },
      "/a/{x}/b": { get: { parameters: [{ name: "x", in: "path" }], responses: OK } },
    });
    const { value, warnings } = collectWarned(doc);
    assert.equal(value.length, 3);
    warnsOnce(warnings, "/paths/~1a~1{y}~1", /"\/a\/\{y\}\/" matches the same requests as "\/a\/\{x\}"/);
  });
});

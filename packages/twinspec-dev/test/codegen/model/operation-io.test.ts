// collectOperations: request bodies, responses and security requirements.
import assert from "node:assert/strict";
import { collectOperations, type Operation } from "../../../src/codegen/model/operations.js";
import type { Json, JsonObject } from "../../../src/codegen/load/spec.js";
import { FILE, OK, openapi, warnsOnce, withWarnings } from "../support.js";

const single = (doc: JsonObject): Operation => {
  const ops = collectOperations(doc, FILE);
  assert.equal(ops.length, 1);
  return ops[0];
};
const collectWarned = (doc: JsonObject) => withWarnings((w) => collectOperations(doc, FILE, w));
const withOperation = (operation: JsonObject, extra: JsonObject = {}) =>
  openapi({ "/x": { post: { responses: OK, ...operation } } }, extra);

describe("collectOperations: request bodies", () => {
  it("has no requestBody when the operation declares none", () => {
    assert.equal(single(withOperation({})).requestBody, undefined);
  });

  const cases: [string, Json, Operation["requestBody"]][] = [
    [
      "required, one media type",
      { required: true, content: { "application/json": { schema: { type: "object" } } } },
      { required: true, contentTypes: ["application/json"], schemas: { "application/json": { type: "object" } } },
    ],
    [
      "optional by default, media type without schema",
      { content: { "application/json": { schema: { type: "string" } }, "text/plain": {} } },
      {
        required: false,
        contentTypes: ["application/json", "text/plain"],
        schemas: { "application/json": { type: "string" }, "text/plain": {} },
      },
    ],
    [
      "through $ref, schema $ref kept as is",
      { $ref: "#/components/requestBodies/NewThing" },
      {
        required: true,
        contentTypes: ["application/json"],
        schemas: { "application/json": { $ref: "#/components/schemas/Thing" } },
      },
    ],
  ];
  const components = {
    requestBodies: {
      NewThing: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
    },
    schemas: { Thing: { type: "object" } },
  };
  for (const [name, requestBody, expected] of cases) {
    it(name, () => assert.deepEqual(single(withOperation({ requestBody }, { components })).requestBody, expected));
  }

  it("ignores a requestBody without content, with a warning naming the component when referenced", () => {
    const doc = withOperation(
      { requestBody: { $ref: "#/components/requestBodies/Empty" } },
      { components: { requestBodies: { Empty: { required: true } } } },
    );
    const { value, warnings } = collectWarned(doc);
    assert.equal(value[0].requestBody, undefined);
    warnsOnce(warnings, "/components/requestBodies/Empty", /requestBody without content: ignored/);
  });

  it("strips media type parameters, in the document too, so types and requests use one key", () => {
    const doc = withOperation({
      requestBody: { content: { "application/json; charset=utf-8": { schema: { type: "object" } } } },
    });
    const body = single(doc).requestBody!;
    assert.deepEqual(body.contentTypes, ["application/json"]);
    assert.deepEqual(
      Object.keys(
        ((doc.paths as JsonObject)["/x"] as { post: { requestBody: { content: JsonObject } } }).post.requestBody
          .content,
      ),
      ["application/json"],
    );
  });

  // [media type, schema, what the body is degraded to (a warning), or undefined: read as declared]
  const kinds: [string, Json, RegExp | undefined][] = [
    ["application/json", { type: "object" }, undefined],
    ["text/plain", { type: "string" }, undefined],
    ["text/plain", { type: "object" }, /a text body whose schema is not a string/],
    ["application/xml", { type: "object" }, /XML is not parsed/],
    ["text/xml", { type: "string" }, /XML is not parsed/],
    ["application/octet-stream", { type: "string", format: "binary" }, undefined],
    [
      "application/x-www-form-urlencoded",
      { type: "object", properties: { a: { type: "array", items: { type: "object" } } } },
      /field "a" is an array of objects/,
    ],
  ];
  for (const [type, schema, degraded] of kinds) {
    it(`${type} ${JSON.stringify(schema)}: ${degraded ? "raw, with a warning" : "read as declared"}`, () => {
      const { value, warnings } = collectWarned(withOperation({ requestBody: { content: { [type]: { schema } } } }));
      assert.deepEqual(value[0].requestBody!.raw, degraded ? [type] : undefined);
      if (degraded) warnsOnce(warnings, `/paths/~1x/post/requestBody/content/${type.replace("/", "~1")}`, degraded);
      else assert.deepEqual(warnings, []);
    });
  }

  it("reads multipart/form-data parts: files (3.0 format binary, 3.1 contentMediaType, arrays; maxLength as their size limit), JSON, scalars, allOf", () => {
    const schema = {
      allOf: [{ type: "object", properties: { note: { type: "string" } } }],
      type: "object",
      properties: {
        avatar: { type: "string", format: "binary", maxLength: 1024 },
        scan: { type: "string", contentMediaType: "image/png" },
        pages: { type: "array", items: { type: "string", format: "binary", maxLength: 2048 } },
        meta: { type: "object", properties: { a: { type: "integer" } } },
        rows: { type: "array", items: { type: "object" } },
        count: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        b64: { type: "string", contentEncoding: "base64", contentMediaType: "image/png" },
      },
    };
    const encoding = { avatar: { contentType: "image/png, image/*" } };
    const body = single(withOperation({ requestBody: { content: { "multipart/form-data": { schema, encoding } } } }))
      .requestBody!;
    assert.deepEqual(body.multipart, {
      note: { type: "string" },
      avatar: { type: "file", contentTypes: ["image/png", "image/*"], maxBytes: 1024 },
      scan: { type: "file" },
      pages: { type: "files", maxBytes: 2048 },
      meta: { type: "json" },
      rows: { type: "json" },
      count: { type: "integer" },
      tags: { type: "array", items: "string" },
      b64: { type: "string" },
    });
  });

  it("reads other multipart types as bytes", () => {
    const body = single(
      withOperation({ requestBody: { content: { "multipart/mixed": { schema: { type: "object" } } } } }),
    ).requestBody!;
    assert.deepEqual([body.multipart, body.raw], [undefined, undefined]);
  });
});

describe("collectOperations: responses", () => {
  const components = {
    responses: {
      NotFound: { description: "nf", content: { "application/problem+json": { schema: {} } } },
    },
    headers: { ETag: { required: true, schema: { type: "string" } } },
  };
  const doc = withOperation(
    {
      responses: {
        "200": {
          description: "ok",
          headers: {
            ETag: { $ref: "#/components/headers/ETag" },
            "Last-Modified": { schema: { type: "string" } },
            "X-Req": { required: false },
          },
          content: { "application/json": { schema: {} }, "text/csv": { schema: {} } },
        },
        "204": { description: "no content" },
        "404": { $ref: "#/components/responses/NotFound" },
        "2XX": { description: "range", content: { "application/json": {} } },
        default: { description: "error", content: { "application/problem+json": {} } },
      },
    },
    { components },
  );

  it("keeps every status in document order with its content types and headers", () => {
    assert.deepEqual(single(doc).responses, [
      {
        status: "200",
        contentTypes: ["application/json", "text/csv"],
        headers: [
          { name: "ETag", required: true },
          { name: "Last-Modified", required: false },
          { name: "X-Req", required: false },
        ],
        schemas: { "application/json": {}, "text/csv": {} },
      },
      { status: "204", contentTypes: [], headers: [], schemas: {} },
      {
        status: "404",
        contentTypes: ["application/problem+json"],
        headers: [],
        schemas: { "application/problem+json": {} },
      },
      { status: "2XX", contentTypes: ["application/json"], headers: [], schemas: { "application/json": {} } },
      {
        status: "default",
        contentTypes: ["application/problem+json"],
        headers: [],
        schemas: { "application/problem+json": {} },
      },
    ]);
  });

  it("ignores a response key that is not a status, a range or default, with a warning (and extensions quietly)", () => {
    const bad = withOperation({
      responses: { "20X": { description: "?" }, "x-ext": {}, "201": { description: "ok" } },
    });
    const { value, warnings } = collectWarned(bad);
    assert.deepEqual(
      value[0].responses.map((r) => r.status),
      ["201"],
    );
    warnsOnce(warnings, "/paths/~1x/post/responses/20X", /not a status code/);
  });

  it("reads a lower-case range as the range, under its key in the document too", () => {
    const doc = withOperation({ responses: { "2xx": { description: "ok" } } });
    assert.deepEqual(
      single(doc).responses.map((r) => r.status),
      ["2XX"],
    );
    assert.deepEqual(
      Object.keys(((doc.paths as JsonObject)["/x"] as { post: { responses: JsonObject } }).post.responses),
      ["2XX"],
    );
  });

  it("lowercases media types and records form fields of a form-urlencoded body", () => {
    const body = single(
      withOperation({
        requestBody: {
          content: {
            "Application/X-WWW-Form-Urlencoded": {
              schema: {
                type: "object",
                properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "boolean" } }, s: {} },
              },
            },
          },
        },
      }),
    ).requestBody!;
    assert.deepEqual(body.contentTypes, ["application/x-www-form-urlencoded"]);
    assert.deepEqual(body.form, {
      n: { type: "integer" },
      tags: { type: "array", items: "boolean" },
      s: { type: "none" },
    });
  });

  it("reads a form-urlencoded body with nested objects as raw fields, with a warning", () => {
    const bad = withOperation({
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": { schema: { type: "object", properties: { o: { type: "object" } } } },
        },
      },
    });
    const { value, warnings } = collectWarned(bad);
    assert.deepEqual(
      [value[0].requestBody!.form, value[0].requestBody!.raw],
      [{}, ["application/x-www-form-urlencoded"]],
    );
    warnsOnce(
      warnings,
      "/paths/~1x/post/requestBody/content/application~1x-www-form-urlencoded",
      /field "o" is an object.*raw strings, unvalidated/,
    );
  });

  for (const [name, responses] of [
    ["without responses", undefined],
    ["with an empty responses object", {}],
  ] as const) {
    it(`lets an operation ${name} answer any status without a body, with a warning`, () => {
      const bad = openapi({ "/x": { get: { operationId: "noResponses", ...(responses ? { responses } : {}) } } });
      const { value, warnings } = collectWarned(bad);
      assert.deepEqual(value[0].responses, [{ status: "default", contentTypes: [], headers: [], schemas: {} }]);
      warnsOnce(warnings, "/paths/~1x/get/responses", /the handler may answer any status, without a body/);
    });
  }

  it("ignores a response header $ref that points at nothing, with a warning", () => {
    const bad = withOperation({
      responses: { "200": { description: "ok", headers: { ETag: { $ref: "#/components/headers/Nope" } } } },
    });
    const { value, warnings } = collectWarned(bad);
    assert.deepEqual(value[0].responses[0].headers, []);
    warnsOnce(warnings, "/components/headers/Nope", /response header "ETag" ignored: .*points at nothing/);
  });
});

describe("collectOperations: security", () => {
  const bearer = [{ bearerAuth: [] }];
  const cases: [string, Json | undefined, Json | undefined, Operation["security"]][] = [
    ["no security anywhere is public", undefined, undefined, []],
    ["inherits the document's requirement", bearer, undefined, [[{ scheme: "bearerAuth", scopes: [] }]]],
    [
      "operation-level requirement overrides the document's",
      bearer,
      [{ bearerAuth: ["curators:read"] }],
      [[{ scheme: "bearerAuth", scopes: ["curators:read"] }]],
    ],
    ["security: [] makes the operation public", bearer, [], []],
    [
      "alternatives (OR) of requirements (AND)",
      undefined,
      [{ apiKey: [] }, { bearerAuth: ["a", "b"], mtls: [] }],
      [
        [{ scheme: "apiKey", scopes: [] }],
        [
          { scheme: "bearerAuth", scopes: ["a", "b"] },
          { scheme: "mtls", scopes: [] },
        ],
      ],
    ],
    [
      "an empty requirement object means optional authentication",
      bearer,
      [{}, { bearerAuth: [] }],
      [[], [{ scheme: "bearerAuth", scopes: [] }]],
    ],
  ];
  for (const [name, documentLevel, operationLevel, expected] of cases) {
    it(name, () => {
      const doc = withOperation(
        operationLevel === undefined ? {} : { security: operationLevel },
        documentLevel === undefined ? {} : { security: documentLevel },
      );
      assert.deepEqual(single(doc).security, expected);
    });
  }

  const malformed: [string, Json, string][] = [
    ["not an array", { bearerAuth: [] }, "/paths/~1x/post/security"],
    ["an alternative that is not an object", ["bearerAuth"], "/paths/~1x/post/security/0"],
  ];
  for (const [name, security, pointer] of malformed) {
    it(`fails closed on security that is ${name}: a scheme no authorizer knows, with a warning`, () => {
      const { value, warnings } = collectWarned(withOperation({ security }));
      assert.deepEqual(value[0].security, [[{ scheme: "(invalid security requirement)", scopes: [] }]]);
      warnsOnce(warnings, pointer, /every call is refused/);
    });
  }
});

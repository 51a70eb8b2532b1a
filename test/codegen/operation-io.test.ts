// collectOperations: request bodies, responses and security requirements.
import assert from "node:assert/strict";
import { collectOperations, type Operation } from "../../src/codegen/operations.js";
import type { Json, JsonObject } from "../../src/codegen/spec.js";
import { FILE, OK, openapi, throwsSpecError } from "./support.js";

const single = (doc: JsonObject): Operation => {
  const ops = collectOperations(doc, FILE);
  assert.equal(ops.length, 1);
  return ops[0];
};
const withOperation = (operation: JsonObject, extra: JsonObject = {}) => openapi({ "/x": { post: { responses: OK, ...operation } } }, extra);

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
      { required: false, contentTypes: ["application/json", "text/plain"], schemas: { "application/json": { type: "string" }, "text/plain": {} } },
    ],
    [
      "through $ref, schema $ref kept as is",
      { $ref: "#/components/requestBodies/NewThing" },
      { required: true, contentTypes: ["application/json"], schemas: { "application/json": { $ref: "#/components/schemas/Thing" } } },
    ],
  ];
  const components = {
    requestBodies: { NewThing: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
    schemas: { Thing: { type: "object" } },
  };
  for (const [name, requestBody, expected] of cases) {
    it(name, () => assert.deepEqual(single(withOperation({ requestBody }, { components })).requestBody, expected));
  }

  it("refuses a requestBody without content, naming the component when referenced", () => {
    const doc = withOperation({ requestBody: { $ref: "#/components/requestBodies/Empty" } }, { components: { requestBodies: { Empty: { required: true } } } });
    throwsSpecError(() => collectOperations(doc, FILE), "/components/requestBodies/Empty/content", /needs content/);
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
          headers: { ETag: { $ref: "#/components/headers/ETag" }, "Last-Modified": { schema: { type: "string" } }, "X-Req": { required: false } },
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
      { status: "404", contentTypes: ["application/problem+json"], headers: [], schemas: { "application/problem+json": {} } },
      { status: "2XX", contentTypes: ["application/json"], headers: [], schemas: { "application/json": {} } },
      { status: "default", contentTypes: ["application/problem+json"], headers: [], schemas: { "application/problem+json": {} } },
    ]);
  });

  it("refuses a response key that is not a status, a range or default", () => {
    const bad = withOperation({ responses: { "20X": { description: "?" } } });
    throwsSpecError(() => collectOperations(bad, FILE), "/paths/~1x/post/responses/20X", /not a status code/);
  });

  it("lowercases media types and records form fields of a form-urlencoded body", () => {
    const body = single(
      withOperation({
        requestBody: {
          content: {
            "Application/X-WWW-Form-Urlencoded": {
              schema: { type: "object", properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "boolean" } }, s: {} } },
            },
          },
        },
      }),
    ).requestBody!;
    assert.deepEqual(body.contentTypes, ["application/x-www-form-urlencoded"]);
    assert.deepEqual(body.form, { n: { type: "integer" }, tags: { type: "array", items: "boolean" }, s: { type: "none" } });
  });

  it("refuses nested objects in a form-urlencoded body", () => {
    const bad = withOperation({ requestBody: { content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: { o: { type: "object" } } } } } } });
    throwsSpecError(() => collectOperations(bad, FILE), "/paths/~1x/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/o", /nested objects/);
  });

  it("refuses an operation without responses", () => {
    const bad = openapi({ "/x": { get: { operationId: "noResponses" } } });
    throwsSpecError(() => collectOperations(bad, FILE), "/paths/~1x/get/responses", /needs responses/);
  });

  it("refuses a response header $ref that points at nothing", () => {
    const bad = withOperation({ responses: { "200": { description: "ok", headers: { ETag: { $ref: "#/components/headers/Nope" } } } } });
    throwsSpecError(() => collectOperations(bad, FILE), "/components/headers/Nope", /points at nothing/);
  });
});

describe("collectOperations: security", () => {
  const bearer = [{ bearerAuth: [] }];
  const cases: [string, Json | undefined, Json | undefined, Operation["security"]][] = [
    ["no security anywhere is public", undefined, undefined, []],
    ["inherits the document's requirement", bearer, undefined, [[{ scheme: "bearerAuth", scopes: [] }]]],
    ["operation-level requirement overrides the document's", bearer, [{ bearerAuth: ["customers:read"] }], [[{ scheme: "bearerAuth", scopes: ["customers:read"] }]]],
    ["security: [] makes the operation public", bearer, [], []],
    [
      "alternatives (OR) of requirements (AND)",
      undefined,
      [{ apiKey: [] }, { bearerAuth: ["a", "b"], mtls: [] }],
      [[{ scheme: "apiKey", scopes: [] }], [{ scheme: "bearerAuth", scopes: ["a", "b"] }, { scheme: "mtls", scopes: [] }]],
    ],
    ["an empty requirement object means optional authentication", bearer, [{}, { bearerAuth: [] }], [[], [{ scheme: "bearerAuth", scopes: [] }]]],
  ];
  for (const [name, documentLevel, operationLevel, expected] of cases) {
    it(name, () => {
      const doc = withOperation(operationLevel === undefined ? {} : { security: operationLevel }, documentLevel === undefined ? {} : { security: documentLevel });
      assert.deepEqual(single(doc).security, expected);
    });
  }

  const malformed: [string, Json, string][] = [
    ["not an array", { bearerAuth: [] }, "/paths/~1x/post/security"],
    ["an alternative that is not an object", ["bearerAuth"], "/paths/~1x/post/security/0"],
  ];
  for (const [name, security, pointer] of malformed) {
    it(`refuses security that is ${name}`, () => throwsSpecError(() => collectOperations(withOperation({ security }), FILE), pointer, /security/));
  }
});

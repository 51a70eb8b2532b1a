// checkResponse: a handler's response against the operation's declared responses.
import assert from "node:assert/strict";
import { checkResponse, declaredFor, type DeclaredResponse } from "../../src/runtime/response-check.js";
import type { Validator } from "../../src/runtime/validation.js";

const nameIsString: Validator = Object.assign(
  (data: unknown) => {
    const ok = typeof (data as { name?: unknown }).name === "string";
    nameIsString.errors = ok
      ? null
      : [{ instancePath: "/name", keyword: "type", params: {}, message: "must be string" }];
    return ok;
  },
  { errors: null },
);
const responses: Record<string, DeclaredResponse> = {
  "200": {
    contentTypes: ["application/json"],
    headers: [
      { name: "ETag", required: true },
      { name: "Link", required: false },
    ],
    validate: { "application/json": nameIsString },
  },
  "204": { contentTypes: [], headers: [] },
  "4XX": { contentTypes: ["application/problem+json"], headers: [] },
};

describe("declaredFor", () => {
  const cases: [number, string | undefined][] = [
    [200, "200"],
    [204, "204"],
    [404, "4XX"],
    [201, undefined],
    [500, undefined],
  ];
  for (const [status, key] of cases)
    it(`${status} → ${key ?? "nothing"}`, () => assert.equal(declaredFor(responses, status), key && responses[key]));
  it("default catches the rest", () => assert.equal(declaredFor({ default: responses["204"] }, 503), responses["204"]));
});

describe("checkResponse", () => {
  const cases: [string, Parameters<typeof checkResponse>[1], string | undefined, string | undefined][] = [
    [
      "a matching response",
      { status: 200, body: { name: "a" }, headers: { etag: '"1"' } },
      "application/json",
      undefined,
    ],
    [
      "an undeclared status",
      { status: 201, body: {} },
      undefined,
      "status 201 is not declared (declared: 200, 204, 4XX)",
    ],
    ["a required header missing", { status: 200, body: { name: "a" } }, "application/json", "header/ETag is required"],
    [
      "a body against its schema",
      { status: 200, body: { name: 1 }, headers: { ETag: "x" } },
      "application/json",
      "body/name must be string",
    ],
    ["a body where none is declared", { status: 204, body: { a: 1 } }, "application/json", "body no body is declared"],
    [
      "no body where one is declared",
      { status: 200, headers: { ETag: "x" } },
      undefined,
      "body a body (application/json) is declared",
    ],
    [
      "an undeclared content type",
      { status: 200, body: "x", headers: { ETag: "x" } },
      "text/plain",
      "body content type text/plain is not declared (application/json)",
    ],
    ["a range", { status: 418, body: {} }, "application/problem+json", undefined],
  ];
  for (const [name, response, type, detail] of cases)
    it(name, () => assert.equal(checkResponse(responses, response, type)?.detail, detail));
});

// fieldErrors: ajv errors → one { in, pointer, message } per bad input.
import assert from "node:assert/strict";
import type { FieldError } from "../../src/runtime/problem.js";
import { fieldErrors, type ValidatorError } from "../../src/runtime/validation.js";

const err = (
  instancePath: string,
  keyword: string,
  params: Record<string, unknown> = {},
  message?: string,
): ValidatorError => ({
  instancePath,
  keyword,
  params,
  ...(message === undefined ? {} : { message }),
});

describe("fieldErrors", () => {
  const cases: [string, FieldError["in"], ValidatorError[], Omit<FieldError, "in">[]][] = [
    [
      "required points at the missing field",
      "body",
      [err("", "required", { missingProperty: "name" }, "must have required property 'name'")],
      [{ pointer: "/name", message: "is required" }],
    ],
    [
      "required inside a nested object",
      "body",
      [err("/address", "required", { missingProperty: "zip" })],
      [{ pointer: "/address/zip", message: "is required" }],
    ],
    [
      "required escapes / and ~ in the field name",
      "header",
      [err("", "required", { missingProperty: "a/b~c" })],
      [{ pointer: "/a~1b~0c", message: "is required" }],
    ],
    [
      "additionalProperties points at the unknown field",
      "body",
      [err("/items/0", "additionalProperties", { additionalProperty: "nick" }, "must NOT have additional properties")],
      [{ pointer: "/items/0/nick", message: "is not a known field" }],
    ],
    [
      "unevaluatedProperties points at the unknown field",
      "body",
      [err("", "unevaluatedProperties", { unevaluatedProperty: "color" }, "must NOT have unevaluated properties")],
      [{ pointer: "/color", message: "is not a known field" }],
    ],
    [
      "enum lists the allowed values as JSON",
      "query",
      [err("/tier", "enum", { allowedValues: ["free", "pro", 3, null] }, "must be equal to one of the allowed values")],
      [{ pointer: "/tier", message: 'must be one of "free", "pro", 3, null' }],
    ],
    [
      "other keywords keep ajv's message at the instance path",
      "path",
      [err("/id", "type", { type: "integer" }, "must be integer")],
      [{ pointer: "/id", message: "must be integer" }],
    ],
    [
      "a missing message becomes 'is invalid'",
      "cookie",
      [err("/session", "custom")],
      [{ pointer: "/session", message: "is invalid" }],
    ],
    [
      "anyOf, oneOf and if are dropped in favour of their branch errors",
      "body",
      [
        err("/v", "type", {}, "must be string"),
        err("/v", "type", {}, "must be number"),
        err("/v", "anyOf", {}, "must match a schema in anyOf"),
        err("/w", "oneOf", {}, "x"),
        err("", "if", {}, "y"),
      ],
      [
        { pointer: "/v", message: "must be string" },
        { pointer: "/v", message: "must be number" },
      ],
    ],
    [
      "the same pointer and message are reported once",
      "body",
      [
        err("", "required", { missingProperty: "id" }),
        err("", "required", { missingProperty: "id" }),
        err("/id", "type", {}, "must be string"),
      ],
      [
        { pointer: "/id", message: "is required" },
        { pointer: "/id", message: "must be string" },
      ],
    ],
    ["no errors", "body", [], []],
  ];
  for (const [name, where, errors, expected] of cases) {
    it(name, () =>
      assert.deepEqual(
        fieldErrors(where, errors),
        expected.map((e) => ({ in: where, ...e })),
      ),
    );
  }

  it("accepts null and undefined (a validator that has not failed)", () => {
    assert.deepEqual(fieldErrors("body", null), []);
    assert.deepEqual(fieldErrors("body", undefined), []);
  });
});

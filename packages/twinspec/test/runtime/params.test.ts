// params: raw strings from the URL, headers and cookies → the JSON values the spec declares, per OpenAPI style.
import assert from "node:assert/strict";
import { coerceScalar, decodeParam, type ParamSpec, type Query, type Scalar } from "../../src/runtime/params.js";

describe("coerceScalar", () => {
  const cases: [string, Scalar, unknown][] = [
    ["42", "integer", 42],
    ["-7", "integer", -7],
    ["007", "integer", 7],
    ["4.2", "integer", "4.2"],
    ["1e3", "integer", "1e3"],
    ["+5", "integer", "+5"],
    ["", "integer", ""],
    ["abc", "integer", "abc"],
    ["4.5", "number", 4.5],
    ["-0.5", "number", -0.5],
    ["1e3", "number", 1000],
    ["", "number", ""],
    ["   ", "number", "   "],
    ["NaN", "number", "NaN"],
    ["Infinity", "number", "Infinity"],
    ["0x10", "number", "0x10"],
    ["12abc", "number", "12abc"],
    ["true", "boolean", true],
    ["false", "boolean", false],
    ["TRUE", "boolean", "TRUE"],
    ["1", "boolean", "1"],
    ["42", "string", "42"],
    ["42", "none", "42"],
  ];
  for (const [raw, type, expected] of cases) {
    it(`${JSON.stringify(raw)} as ${type} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(coerceScalar(raw, type), expected));
  }
});

describe("decodeParam", () => {
  const q = (name: string, extra: Partial<ParamSpec>): ParamSpec => ({
    name,
    in: "query",
    type: "string",
    style: "form",
    explode: true,
    ...extra,
  });
  const obj = { a: "integer", b: "boolean" } as Record<string, Scalar>;
  // [description, parameter, its own raw value, the whole query, expected]
  const cases: [string, ParamSpec, string | string[] | undefined, Query, unknown][] = [
    ["absent", q("n", { type: "integer" }), undefined, {}, undefined],
    ["integer", q("n", { type: "integer" }), "5", {}, 5],
    ["repeated scalar stays a list for validation to name", q("n", { type: "integer" }), ["1", "2"], {}, ["1", "2"]],
    [
      "form explode array: one item per repetition, items coerced",
      q("ids", { type: "array", items: "integer" }),
      ["1", "2"],
      {},
      [1, 2],
    ],
    [
      "form explode array: a single value is a one-item array",
      q("ids", { type: "array", items: "integer" }),
      "3",
      {},
      [3],
    ],
    [
      "form explode array: commas are part of the value",
      q("tags", { type: "array", items: "string" }),
      "a,b",
      {},
      ["a,b"],
    ],
    [
      "form array without explode: comma-separated, items coerced",
      q("ids", { type: "array", items: "number", explode: false }),
      "1.5,2",
      {},
      [1.5, 2],
    ],
    [
      "form array without explode: empty value is []",
      q("ids", { type: "array", items: "integer", explode: false }),
      "",
      {},
      [],
    ],
    [
      "item that is not its type stays a string",
      q("ids", { type: "array", items: "integer", explode: false }),
      "1,x",
      {},
      [1, "x"],
    ],
    [
      "spaceDelimited",
      q("ids", { type: "array", items: "integer", style: "spaceDelimited", explode: false }),
      "1 2 3",
      {},
      [1, 2, 3],
    ],
    [
      "pipeDelimited",
      q("ids", { type: "array", items: "boolean", style: "pipeDelimited", explode: false }),
      "true|false",
      {},
      [true, false],
    ],
    [
      "deepObject reads name[prop] keys",
      q("f", { type: "object", props: obj, style: "deepObject" }),
      undefined,
      { "f[a]": "1", "f[b]": "true", other: "x" },
      { a: 1, b: true },
    ],
    [
      "deepObject keeps undeclared props as strings",
      q("f", { type: "object", props: obj, style: "deepObject" }),
      undefined,
      { "f[c]": "1" },
      { c: "1" },
    ],
    [
      "deepObject absent",
      q("f", { type: "object", props: obj, style: "deepObject" }),
      undefined,
      { a: "1" },
      undefined,
    ],
    [
      "form explode object reads its declared properties",
      q("f", { type: "object", props: obj }),
      undefined,
      { a: "2", b: "false", c: "x" },
      { a: 2, b: false },
    ],
    [
      "form object without explode: k,v pairs",
      q("f", { type: "object", props: obj, explode: false }),
      "a,3,b,true",
      {},
      { a: 3, b: true },
    ],
    [
      "form object without explode: odd list stays a list",
      q("f", { type: "object", props: obj, explode: false }),
      "a,3,b",
      {},
      ["a", "3", "b"],
    ],
    ["JSON content", q("w", { type: "json" }), '{"a":1}', {}, { a: 1 }],
    ["JSON content that is not JSON stays a string", q("w", { type: "json" }), "{a", {}, "{a"],
    [
      "path simple array",
      { name: "ids", in: "path", type: "array", items: "integer", style: "simple" },
      "1,2",
      {},
      [1, 2],
    ],
    [
      "path simple object",
      { name: "o", in: "path", type: "object", props: obj, style: "simple" },
      "a,1,b,false",
      {},
      { a: 1, b: false },
    ],
    [
      "path simple exploded object",
      { name: "o", in: "path", type: "object", props: obj, style: "simple", explode: true },
      "a=1,b=true",
      {},
      { a: 1, b: true },
    ],
    [
      "header array items are trimmed",
      { name: "X-Ids", in: "header", type: "array", items: "integer", style: "simple" },
      "1, 2 ,3",
      {},
      [1, 2, 3],
    ],
    ["header scalar is trimmed and coerced", { name: "X-N", in: "header", type: "number" }, " 2.5 ", {}, 2.5],
    [
      "cookie array (explode false)",
      { name: "c", in: "cookie", type: "array", items: "integer", style: "form", explode: false },
      "4,5",
      {},
      [4, 5],
    ],
  ];
  for (const [name, p, raw, query, expected] of cases) {
    it(name, () => assert.deepEqual(decodeParam(p, raw, query), expected));
  }
});

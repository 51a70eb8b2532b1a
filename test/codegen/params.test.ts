// coerce: raw strings from the URL and headers → the JSON types the spec declares.
import assert from "node:assert/strict";
import { coerce, type Coercion } from "../../src/http/params.js";

describe("coerce", () => {
  const cases: [string | string[] | undefined, Coercion, unknown][] = [
    [undefined, "integer", undefined],
    [undefined, "array", undefined],
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
    ["12abc", "number", "12abc"],
    ["true", "boolean", true],
    ["false", "boolean", false],
    ["TRUE", "boolean", "TRUE"],
    ["1", "boolean", "1"],
    ["a,b,c", "array", ["a", "b", "c"]],
    ["a", "array", ["a"]],
    [["a", "b,c"], "array", ["a", "b,c"]],
    [["1", "2"], "integer", ["1", "2"]],
    [["true"], "boolean", ["true"]],
    ["42", "string", "42"],
    ["42", "none", "42"],
    ["", "string", ""],
  ];
  for (const [raw, kind, expected] of cases) {
    it(`${JSON.stringify(raw)} as ${kind} → ${JSON.stringify(expected)}`, () => assert.deepEqual(coerce(raw, kind), expected));
  }
});

// preferred: which of an operation's media types an Accept header allows (406 when none).
import assert from "node:assert/strict";
import { preferred } from "../../src/runtime/negotiation.js";

describe("preferred (Accept)", () => {
  const json = "application/json";
  const cases: [string | undefined, string[], string | undefined][] = [
    [undefined, [json], json],
    ["", [json], json],
    ["*/*", [json, "text/csv"], json],
    ["application/json", [json], json],
    ["Application/JSON", [json], json],
    ["application/*", [json], json],
    ["application/xml", [json], undefined],
    ["text/csv", [json, "text/csv"], "text/csv"],
    ["text/*;q=0.5, application/json", [json, "text/csv"], json],
    ["application/json;q=0.1, text/csv", [json, "text/csv"], "text/csv"],
    ["application/json;q=0", [json], undefined],
    ["*/*;q=0.1, application/json;q=0", [json, "text/csv"], "text/csv"],
    ["application/problem+json", [json], undefined],
    ["garbage", [json], json],
  ];
  for (const [accept, offered, expected] of cases) {
    it(`${JSON.stringify(accept)} of ${offered.join(", ")} → ${expected ?? "none (406)"}`, () =>
      assert.equal(preferred(accept, offered), expected));
  }
});

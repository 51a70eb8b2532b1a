// The commerce service's `npm run mock` runs its src/mock.ts from the sources (serveMock itself is tested in the
// twinspec package: packages/twinspec-dev/test/mock/serve.test.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

describe("npm run mock (the commerce service's script)", () => {
  it("runs src/mock.ts with tsx and the twinspec-source condition", () => {
    assert.equal(
      JSON.parse(readFileSync("package.json", "utf8")).scripts.mock,
      "tsx --conditions=twinspec-source src/mock.ts",
    );
  });
});

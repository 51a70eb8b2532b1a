// Golden outputs: the generated code for real-world documents (and our coverage document) is exactly what is
// committed under test/golden/ — which `tsc` type-checks as part of `npm test`.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { generateGolden, GOLDEN } from "../golden/specs.js";

describe("golden outputs (test/golden/<name>/)", function () {
  this.timeout(30_000);
  for (const name of Object.keys(GOLDEN) as (keyof typeof GOLDEN)[]) {
    it(`${name}: regenerating ${GOLDEN[name]} gives the committed files (npm run golden after a deliberate change)`, async () => {
      const files = await generateGolden(name);
      assert.deepEqual(readdirSync(`test/golden/${name}`).sort(), files.map((f) => f.path.split("/").pop()).sort());
      for (const f of files) {
        assert.ok(existsSync(f.path), `${f.path} is missing`);
        assert.ok(readFileSync(f.path, "utf8") === f.content, `${f.path} differs from what the generator produces now`);
      }
    });
  }
});

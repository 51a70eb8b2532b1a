// Runs last (file order): every (operation, declared status) pair of openapi.yaml must have been produced by
// some test against a real server. Prints the coverage and fails below 100%.
import assert from "node:assert/strict";
import { operationSpecs } from "../generated/rest.js";
import { answered } from "./support/coverage.js";

/**
 * Answered by the HTTP layer to a request for any operation's URL, before the operation is chosen (slow headers or
 * body, a URL or headers too large), so no test server can tell which operation it was for: each is produced, for
 * the server as a whole, by test/http/limits.test.ts.
 */
const BEFORE_ROUTING = new Set(["408", "414", "431"]);

describe("per-status coverage of openapi.yaml", () => {
  it("every declared (operation, status) pair was produced by a test", () => {
    const missing: string[] = [];
    let total = 0;
    for (const op of operationSpecs) {
      for (const status of Object.keys(op.responses).filter((s) => /^\d{3}$/.test(s) && !BEFORE_ROUTING.has(s))) {
        total++;
        if (!answered.get(op.operationId)?.has(Number(status))) missing.push(`${op.operationId} ${status}`);
      }
    }
    const covered = total - missing.length;
    console.log(`      (operation, status) coverage: ${covered}/${total} = ${((100 * covered) / total).toFixed(1)}%`);
    assert.deepEqual(missing, [], `not produced by any test:\n${missing.join("\n")}`);
  });
});

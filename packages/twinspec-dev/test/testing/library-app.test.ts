// The library application (test/apps/library: members, books with copies, loans), made by `twinspec init` and filled
// in as a new user would, passes the kit's one line, walkApi(definition), in a process of its own as its `npm test`
// runs it: every part green and the coverage gate at 100 %, each 409 of the domain reached by a scenario of its
// workflows.arazzo.yaml. On the database TEST_DATABASE names.
import assert from "node:assert/strict";
import { LIBRARY, runLibrary } from "./library-support.js";

describe("the library application passes walkApi", function () {
  this.timeout(600_000);

  it("every part green, 100 % of its (operation, status) pairs produced on purpose, nothing pending", () => {
    const { status, output } = runLibrary(LIBRARY, { typescript: true });
    assert.equal(status, 0, output);
    assert.match(output, /\(operation, status\) coverage: (\d+)\/\1 = 100\.0%/, output);
    assert.match(output, /✔ lastCopyLent: /, output);
    assert.match(output, /✔ loanReturnedTwice: /, output);
    assert.doesNotMatch(output, /^\s+\d+ (pending|failing)$/m, output);
    assert.doesNotMatch(output, /not yet implemented/, output);
  });
});

// Scenarios written as Arazzo 1.0 workflows run against a real server over REST: outputs pass between steps,
// runtime expressions fill parameters and bodies, success criteria are checked, and a step that asks for a status
// counts toward the coverage gate; a workflow that expects what the application does not do fails naming the
// workflow, the step, the criterion and the request.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

const run = (file: string) =>
  childMocha({
    file: "test/testing/scenario-run.ts",
    root: FIXTURE,
    env: { ARAZZO_FILE: resolve("test/fixtures/workflows", file) },
    timeout: 90_000,
  });

describe("scenarios: Arazzo workflows run by the kit", function () {
  this.timeout(120_000);

  it("a workflow passes step by step, and the statuses its steps asked for count toward the gate", () => {
    const { status, output } = run("notes.arazzo.yaml");
    assert.equal(status, 0, output);
    assert.match(output, /noteWrittenThenDeleted: an author writes a note, deletes it, and the note is gone/);
    assert.doesNotMatch(output, /left: (createAuthor 201|getNote 410|deleteNote 204):/, output);
  });

  it("a criterion not met fails, naming the workflow, the step, the criterion and the request; the status got does not count", () => {
    const { status, output } = run("wrong.arazzo.yaml");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /scenario readMissingAuthor, step readAsMissing \(getAuthor\): criterion "\$statusCode == 404" not met: GET \/authors\/aut_[\w-]+ → 200 \{/,
      output,
    );
    assert.match(output, /left: getAuthor 404: produced by no test/, output);
    assert.doesNotMatch(output, /at .*src\/testing\//, "no stack from inside the kit");
  });
});

// `npm run lint:spec` (Spectral's spectral:oas ruleset, run by `npm test`): openapi.yaml passes it, and the script
// does fail on the defects it exists to catch — warnings included, with .spectral.yaml's exceptions only.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { includeParts } from "twinspec/internals";
import { parse, stringify } from "yaml";

const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts["lint:spec"];

/** The script as package.json has it, on `file` instead of openapi.yaml, with Spectral's JSON report. */
function lint(file: string) {
  const [command, ...args] = script.split(" ").map((word) => (word === "openapi.yaml" ? file : word));
  const run = spawnSync(join("node_modules", ".bin", command), [...args, "--format", "json", "--quiet"], {
    encoding: "utf8",
  });
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("["))) as {
    code: string;
    path: string[];
    severity: number;
  }[];
  return { status: run.status, report };
}

describe("npm run lint:spec (Spectral)", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "twinspec-lint-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("finds nothing in openapi.yaml", () => {
    const { status, report } = lint("openapi.yaml");
    assert.deepEqual(report, []);
    assert.equal(status, 0);
  });

  it("finds nothing in openapi.yaml with the Twinspec parts it includes merged in (what /openapi.json serves)", () => {
    const file = join(dir, "merged.yaml");
    writeFileSync(file, stringify(includeParts(parse(readFileSync("openapi.yaml", "utf8")))));
    const { status, report } = lint(file);
    assert.deepEqual(report, []);
    assert.equal(status, 0);
  });

  it("fails on a warning: an operation without a description, an info object without a contact", () => {
    const doc = parse(readFileSync("openapi.yaml", "utf8"));
    delete doc.info.contact;
    delete doc.paths["/customers"].get.description;
    const file = join(dir, "openapi.yaml");
    writeFileSync(file, stringify(doc));
    const { status, report } = lint(file);
    assert.notEqual(status, 0);
    assert.deepEqual(report.map((r) => [r.code, r.path.join(".")]).sort(), [
      ["info-contact", "info"],
      ["operation-description", "paths./customers.get"],
    ]);
  });
});

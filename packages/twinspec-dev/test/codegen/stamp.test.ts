// generated/.twinspec-stamp.json: `generate --check` answers from it only when the inputs, the generator and the
// outputs are exactly what the last generate saw; anything else (a spec, a hand edit, the generator) runs the full check.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";

const TWINSPEC = fileURLToPath(new URL("../../bin/twinspec.js", import.meta.url));
// Inside the repository (test/.tmp/ is ignored), so the copy finds node_modules and the lockfile as the fixture does.
const TMP = fileURLToPath(new URL("../.tmp", import.meta.url));
const FAST =
  /generated\/ is up to date: the inputs, the generator and the outputs are unchanged since the last generate \(\.twinspec-stamp\.json matched in \d+ ms\)/;

describe("generate --check and its stamp (generated/.twinspec-stamp.json)", function () {
  this.timeout(180_000);
  let app: string;
  const check = (env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [TWINSPEC, "generate", "--check"], {
      encoding: "utf8",
      cwd: app,
      env: { ...process.env, ...env },
    });

  beforeEach(() => {
    mkdirSync(TMP, { recursive: true });
    app = mkdtempSync(join(TMP, "stamp-"));
    for (const entry of ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src", "generated", "client"])
      cpSync(join(FIXTURE, entry), join(app, entry), { recursive: true });
  });
  afterEach(() => rmSync(app, { recursive: true, force: true }));

  it("is committed with the fixture's generated/ and holds no absolute path: it matches in a copy elsewhere", () => {
    const stamp = readFileSync(join(app, "generated/.twinspec-stamp.json"), "utf8");
    assert.doesNotMatch(stamp, /\/(work|home|tmp|Users)\//);
    assert.ok(JSON.parse(stamp).inputs.includes("src/migrations/"));
    const res = check();
    assert.equal(res.status, 0, res.stderr);
    // A generator or runtime change makes every stamp stale until generate runs again (then commit the stamp).
    assert.match(
      res.stdout,
      FAST,
      "the fixture's committed stamp is stale: run `npm run -s generate:fixture -w twinspec` and commit packages/twinspec/test/fixture/generated/.twinspec-stamp.json",
    );
  });

  it("a changed spec runs the full check, which names the drift", () => {
    const spec = join(app, "openapi.yaml");
    writeFileSync(
      spec,
      readFileSync(spec, "utf8").replace("description: A page of notes", "description: A page of the notes"),
    );
    const res = check();
    assert.equal(res.status, 1);
    assert.doesNotMatch(res.stdout, FAST);
    assert.match(res.stderr, /generated\/ is stale/);
    assert.match(res.stderr, /openapi\.ts \(differs\)/);
  });

  it("workflows.arazzo.yaml is an input: a new one runs the full check, which checks it and points at its defect", () => {
    writeFileSync(
      join(app, "workflows.arazzo.yaml"),
      [
        "arazzo: 1.0.1",
        "info: { title: t, version: 1.0.0 }",
        "sourceDescriptions: [{ name: api, url: ./openapi.yaml, type: openapi }]",
        "workflows:",
        "  - workflowId: w",
        "    steps:",
        "      - { stepId: s, operationId: createAuthr }",
        "",
      ].join("\n"),
    );
    const res = check();
    assert.equal(res.status, 1);
    assert.doesNotMatch(res.stdout, FAST);
    assert.match(
      res.stderr,
      /workflows\.arazzo\.yaml does not agree with the specs \(1\):\n {2}workflows\.arazzo\.yaml:7:35: step s: operationId "createAuthr" is not an operation of openapi\.yaml \(#\/workflows\/0\/steps\/0\/operationId\)/,
    );
  });

  it("a hand edit of a generated file runs the full check, which fails naming it", () => {
    appendFileSync(join(app, "generated/rest.ts"), "// hand edit\n");
    const res = check();
    assert.equal(res.status, 1);
    assert.doesNotMatch(res.stdout, FAST);
    assert.match(res.stderr, /rest\.ts \(differs\)/);
  });

  it("a hand-written file the stubs go into is an input too: a removed handler is still found missing", () => {
    const handlers = join(app, "src/rest/notes.ts");
    writeFileSync(handlers, readFileSync(handlers, "utf8").replace(/\n  async getNote\(/, "\n  async getNoteRenamed("));
    const res = check();
    assert.equal(res.status, 1);
    assert.doesNotMatch(res.stdout, FAST);
    assert.match(res.stderr, /src\/rest\/notes\.ts lacks stubs: getNote\b/);
  });

  it("a changed generator runs the full check (which passes: the outputs are still right)", () => {
    // The seam: the folder hashed as the generator's code, here a copy of it with one file more.
    const generator = join(app, "generator");
    cpSync(fileURLToPath(new URL("../../src/codegen", import.meta.url)), generator, { recursive: true });
    assert.match(check({ TWINSPEC_STAMP_GENERATOR_DIR: generator }).stdout, FAST, "an identical copy hashes the same");
    writeFileSync(join(generator, "changed.ts"), "export {};\n");
    const res = check({ TWINSPEC_STAMP_GENERATOR_DIR: generator });
    assert.equal(res.status, 0, res.stderr);
    assert.doesNotMatch(res.stdout, FAST);
    assert.match(res.stdout, /generated\/ is up to date \(\d+ files, \d+ ms\)/);
  });

  it("generate rewrites the stamp, and a stray file in generated/ is still caught", () => {
    const res = spawnSync(process.execPath, [TWINSPEC, "generate"], { encoding: "utf8", cwd: app });
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual(
      readFileSync(join(app, "generated/.twinspec-stamp.json"), "utf8"),
      readFileSync(join(FIXTURE, "generated/.twinspec-stamp.json"), "utf8"),
    );
    writeFileSync(join(app, "generated/stray.ts"), "export {};\n");
    const stray = check();
    assert.equal(stray.status, 1);
    assert.match(stray.stderr, /stray\.ts \(not produced by the specs\)/);
  });
});

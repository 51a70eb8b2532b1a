// `npm run generate` end to end in a scratch project (a copy of the fixture application's specs): it refuses specs that disagree (writing nothing), and lists
// breaking changes against git HEAD, fatal only with --strict.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const TWINSPEC = fileURLToPath(new URL("../../../bin/twinspec.js", import.meta.url));
/** The node_modules the package's dependencies are installed in (the workspace's). */
const NODE_MODULES = dirname(dirname(createRequire(import.meta.url).resolve("graphql/package.json")));

describe("npm run generate: spec checks", function () {
  this.timeout(60_000);
  let dir: string;
  const generate = (...args: string[]) =>
    spawnSync(process.execPath, [TWINSPEC, "generate", "--out", "out", ...args], { cwd: dir, encoding: "utf8" });
  const edit = (file: string, from: string | RegExp, to: string) => {
    const text = readFileSync(join(dir, file), "utf8");
    assert.match(
      text,
      typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : from,
      `${file} has ${from}`,
    );
    writeFileSync(join(dir, file), text.replace(from, to));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "twinspec-checks-"));
    for (const f of ["openapi.yaml", "schema.graphql", "codegen.yml"])
      cpSync(join(FIXTURE, f), join(dir, f), { recursive: true });
    symlinkSync(NODE_MODULES, join(dir, "node_modules"), "dir");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a Twinspec part that cannot be included (webhook-endpoints without webhooks:) is an invalid spec naming where, nothing written", () => {
    edit("openapi.yaml", /^paths:/m, "x-twinspec-parts: [webhook-endpoints]\npaths:");
    edit("openapi.yaml", /^webhooks:\n(?:(?: .*)?\n)+(?=components:)/m, "");
    const res = generate();
    assert.equal(res.status, 1, res.stdout);
    assert.match(
      res.stderr,
      /invalid spec: openapi\.yaml#\/x-twinspec-parts: webhook-endpoints registers endpoints for the document's webhooks .*declares none/,
    );
    assert.ok(!existsSync(join(dir, "out")), "nothing generated");
  });

  it("fails on a disagreement with a report naming type, field and both sides, and writes nothing", () => {
    edit("schema.graphql", /(type Author \{[^}]*?)name: String!/, "$1name: Int!");
    const res = generate();
    assert.equal(res.status, 1, res.stdout);
    assert.match(res.stderr, /openapi\.yaml and schema\.graphql disagree \(1\):/);
    assert.match(
      res.stderr,
      /Author\.name: type differs\n\s+REST\s+Author\.name: string\n\s+GraphQL Author\.name: Int \(integer\)/,
    );
    assert.ok(!existsSync(join(dir, "out")), "nothing generated");
    // Not a git repository: nothing to compare with, said so rather than silently skipped.
    assert.match(
      res.stdout,
      /no breaking changes since git HEAD \(not compared: openapi\.yaml \(.+\), schema\.graphql \(.+\)\)/,
    );
  });

  it("lists breaking changes since HEAD for both specs; --strict makes them fatal", () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd: dir,
        stdio: "pipe",
      });
    git("init", "-q");
    git("add", "openapi.yaml", "schema.graphql");
    git("commit", "-q", "-m", "base");
    // Same removal in both specs: they still agree, but old clients break.
    const rest = parse(readFileSync(join(dir, "openapi.yaml"), "utf8"));
    const author = rest.components.schemas.Author;
    assert.ok(author.properties.updatedAt && author.required.includes("updatedAt"));
    delete author.properties.updatedAt;
    author.required = author.required.filter((f: string) => f !== "updatedAt");
    writeFileSync(join(dir, "openapi.yaml"), stringify(rest));
    edit("schema.graphql", /(type Author \{[^}]*?)\n\s+updatedAt: DateTime!/, "$1");

    const strict = generate("--strict");
    assert.equal(strict.status, 1, strict.stdout);
    assert.match(strict.stderr, /break existing clients \(fatal: --strict\)/);
    assert.match(strict.stderr, /openapi\.yaml\s+components\.schemas\.Author \.updatedAt: field removed/);
    assert.match(strict.stderr, /schema\.graphql\s+FIELD_REMOVED: Author\.updatedAt was removed\./);
    assert.ok(!existsSync(join(dir, "out")) && !existsSync(join(dir, "client")), "nothing generated under --strict");

    const loose = generate();
    assert.equal(loose.status, 0, loose.stderr);
    assert.match(loose.stderr, /2 change\(s\) since git HEAD break existing clients:/);
    assert.ok(existsSync(join(dir, "out/rest.ts")) && existsSync(join(dir, "client/generated/rest.ts")));
  });
});

// `npm run generate` end to end in a scratch project: it refuses specs that disagree (writing nothing), and lists
// breaking changes against git HEAD, fatal only with --strict.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse, stringify } from "yaml";

const CLI = resolve("packages/twinspec/src/codegen/cli.ts");

describe("npm run generate: spec checks", function () {
  this.timeout(60_000);
  let dir: string;
  const generate = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", CLI, "--out", "out", ...args], { cwd: dir, encoding: "utf8" });
  const edit = (file: string, from: string | RegExp, to: string) => {
    const text = readFileSync(join(dir, file), "utf8");
    assert.match(text, typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : from, `${file} has ${from}`);
    writeFileSync(join(dir, file), text.replace(from, to));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "twinspec-checks-"));
    for (const f of ["openapi.yaml", "schema.graphql", "codegen.yml", "client"]) cpSync(f, join(dir, f), { recursive: true });
    symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("fails on a disagreement with a report naming type, field and both sides, and writes nothing", () => {
    edit("schema.graphql", /(type Customer \{[^}]*?)email: String!/, "$1email: Int!");
    const res = generate();
    assert.equal(res.status, 1, res.stdout);
    assert.match(res.stderr, /openapi\.yaml and schema\.graphql disagree \(1\):/);
    assert.match(res.stderr, /Customer\.email: type differs\n\s+REST\s+Customer\.email: string \(email\)\n\s+GraphQL Customer\.email: Int \(integer\)/);
    assert.ok(!existsSync(join(dir, "out")), "nothing generated");
    // Not a git repository: nothing to compare with, said so rather than silently skipped.
    assert.match(res.stdout, /no breaking changes since git HEAD \(not compared: openapi\.yaml \(.+\), schema\.graphql \(.+\)\)/);
  });

  it("lists breaking changes since HEAD for both specs; --strict makes them fatal", () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "pipe" });
    git("init", "-q");
    git("add", "openapi.yaml", "schema.graphql");
    git("commit", "-q", "-m", "base");
    // Same removal in both specs: they still agree, but old clients break.
    const rest = parse(readFileSync(join(dir, "openapi.yaml"), "utf8"));
    const cart = rest.components.schemas.Cart;
    assert.ok(cart.properties.updatedAt && cart.required.includes("updatedAt"));
    delete cart.properties.updatedAt;
    cart.required = cart.required.filter((f: string) => f !== "updatedAt");
    writeFileSync(join(dir, "openapi.yaml"), stringify(rest));
    edit("schema.graphql", /(type Cart \{[^}]*?)\n\s+updatedAt: DateTime!/, "$1");

    const strict = generate("--strict");
    assert.equal(strict.status, 1, strict.stdout);
    assert.match(strict.stderr, /break existing clients \(fatal: --strict\)/);
    assert.match(strict.stderr, /openapi\.yaml\s+components\.schemas\.Cart \.updatedAt: field removed/);
    assert.match(strict.stderr, /schema\.graphql\s+FIELD_REMOVED: Cart\.updatedAt was removed\./);
    assert.ok(!existsSync(join(dir, "out")), "nothing generated under --strict");

    const loose = generate();
    assert.equal(loose.status, 0, loose.stderr);
    assert.match(loose.stderr, /2 change\(s\) since git HEAD break existing clients:/);
    assert.ok(existsSync(join(dir, "out/client/rest.ts")));
  });
});

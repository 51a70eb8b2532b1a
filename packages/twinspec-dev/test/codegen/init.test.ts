// `twinspec init`: a new application gets its client package (client/): package.json bundling twinspec-client with
// the runtime's dependencies, the generated SDK and typed documents (for the starter pair, of a starter operation
// file), which compile against twinspec-client as they are. And the application itself compiles as written,
// whatever its specs (below). Both are type-checked against the packages' declarations in dist/ (built first when a
// source is newer), as an installed application sees them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { ensurePackagesBuilt } from "../support/compiled.js";

const twinspec = (...args: string[]) => spawnSync(process.execPath, ["bin/twinspec.js", ...args], { encoding: "utf8" });
const twinspecWith = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, ["bin/twinspec.js", ...args], { encoding: "utf8", env: { ...process.env, ...env } });
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

describe("twinspec init: the client package", function () {
  this.timeout(120_000);
  // Inside the repository, so the new client resolves twinspec-client from its node_modules.
  const base = resolve("test", ".tmp", `init-${process.pid}`);
  before(() => {
    ensurePackagesBuilt(["twinspec-client", "twinspec-dev"]);
    mkdirSync(base, { recursive: true });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  for (const [what, args, documents] of [
    ["the starter pair", [], true],
    [
      "the user's own specs (no GraphQL operations yet)",
      ["--openapi", "../twinspec/test/fixture/openapi.yaml", "--graphql", "../twinspec/test/fixture/schema.graphql"],
      false,
    ],
  ] as const) {
    it(`${what}: client/ with its package.json, the SDK${documents ? " and typed documents" : ""}, compiling`, () => {
      const dir = join(base, documents ? "starter" : "own");
      const res = twinspec("init", dir, ...args);
      assert.equal(res.status, 0, res.stderr);
      const client = json(join(dir, "client/package.json"));
      const runtime = json(createRequire(import.meta.url).resolve("twinspec-client/package.json"));
      assert.equal(client.name, `${documents ? "starter" : "own"}-client`);
      assert.deepEqual(client.bundleDependencies, ["twinspec-client"]);
      for (const dependency of Object.keys(runtime.dependencies))
        assert.ok(client.dependencies[dependency], `${dependency} is the client's dependency too`);
      assert.equal(client.scripts.prepack, "twinspec client prepack");
      const app = json(join(dir, "package.json"));
      assert.equal(app.devDependencies[client.name], "file:client");
      // Split by lifetime: the runtime (and what the generated validators require) is what a deployed application
      // installs; the CLI, test kit and compiler are not.
      assert.deepEqual(Object.keys(app.dependencies), ["ajv", "ajv-formats", "graphql", "kysely", "twinspec"]);
      const generated = readFileSync(join(dir, "generated/validators.cjs"), "utf8");
      for (const [, needed] of generated.matchAll(/require\("((?:@[^/"]+\/)?[^/"]+)/g))
        assert.ok(app.dependencies[needed], `generated/validators.cjs requires ${needed}: a dependency`);
      for (const dev of ["twinspec-dev", "twinspec-client", "tsx", "typescript", "mocha"])
        assert.ok(app.devDependencies[dev], dev);
      assert.equal(app.scripts.start, "twinspec-app start");
      for (const file of ["index.ts", "rest.ts", "openapi.ts"])
        assert.ok(existsSync(join(dir, "client/generated", file)), file);
      assert.equal(existsSync(join(dir, "client/operations/notes.graphql")), documents);
      // Typed documents for what client/operations/ holds (none yet: the schema's types and an empty manifest).
      const manifest = json(join(dir, "client/generated/graphql/persisted-documents.json"));
      assert.equal(Object.keys(manifest).length > 0, documents);
      assert.equal(
        /\bCreateNote: \{/.test(readFileSync(join(dir, "client/generated/documents.ts"), "utf8")),
        documents,
      );
      assert.match(
        readFileSync(join(dir, "client/generated/rest.ts"), "utf8"),
        documents ? /createNote: \{ method: "POST"/ : /createAuthor|createNote/,
      );
      const check = spawnSync(process.execPath, [tsc, "-p", join(dir, "client"), "--noEmit"], { encoding: "utf8" });
      assert.equal(check.status, 0, check.stdout + check.stderr);
    });
  }

  it("names each package after the tarball npm exec was given for it, whatever their order", () => {
    const server = join(base, "twinspec-0.1.0.tgz");
    const runtime = join(base, "twinspec-client-0.1.0.tgz");
    for (const file of [server, runtime]) writeFileSync(file, "");
    const dir = join(base, "tarballs");
    const res = twinspecWith({ npm_config_package: `${runtime} ${server}` }, "init", dir);
    assert.equal(res.status, 0, res.stderr);
    const app = json(join(dir, "package.json"));
    assert.deepEqual(
      [app.dependencies.twinspec, app.devDependencies["twinspec-client"]],
      [`file:${server}`, `file:${runtime}`],
    );
    assert.equal(json(join(dir, "client/package.json")).dependencies["twinspec-client"], `file:${runtime}`);
  });

  it("--vendor (create-twinspec's): copies the tarballs into vendor/ and names them from there, the client from client/", () => {
    const vendor = join(base, "vendor-in");
    mkdirSync(vendor);
    for (const file of ["twinspec-0.1.0.tgz", "twinspec-dev-0.1.0.tgz", "twinspec-client-0.1.0.tgz"])
      writeFileSync(join(vendor, file), "");
    const dir = join(base, "vendored");
    const res = twinspec("init", dir, "--vendor", vendor);
    assert.equal(res.status, 0, res.stderr);
    const app = json(join(dir, "package.json"));
    assert.equal(app.dependencies.twinspec, "file:vendor/twinspec-0.1.0.tgz");
    assert.equal(app.devDependencies["twinspec-dev"], "file:vendor/twinspec-dev-0.1.0.tgz");
    assert.equal(app.devDependencies["twinspec-client"], "file:vendor/twinspec-client-0.1.0.tgz");
    assert.equal(
      json(join(dir, "client/package.json")).dependencies["twinspec-client"],
      "file:../vendor/twinspec-client-0.1.0.tgz",
    );
    assert.ok(existsSync(join(dir, "vendor/twinspec-dev-0.1.0.tgz")));
    // What it did, and the next two commands.
    assert.match(res.stdout, /created .*vendor\/ /);
    assert.match(res.stdout, /next:\n {2}cd .* && npm install\n {2}npm test && npm start/);
  });
});

// init with specs that have list relations, lookups through relations, a child owned through its parent and an
// event stream (test/fixtures/library), and with the commerce service's own: the application compiles as written,
// every method generated/wiring.ts asks of a domain service a stub. A relation added later makes generate append
// the one stub it needs to the module already there, and say so.
describe("twinspec init: any specs compile with zero edits", function () {
  // init, then tsc over the application: up to a minute each on a busy machine.
  this.timeout(360_000);
  const base = resolve("test", ".tmp", `init-specs-${process.pid}`);
  const bin = resolve("bin/twinspec.js");
  // Incremental, its state beside the application: the library's second check, after generate appended a stub,
  // checks again only what that changed.
  const typecheck = (dir: string) =>
    spawnSync(
      process.execPath,
      [tsc, "-p", dir, "--noEmit", "--incremental", "--tsBuildInfoFile", join(dir, ".tsbuildinfo")],
      { encoding: "utf8" },
    );
  before(() => {
    ensurePackagesBuilt(["twinspec-client", "twinspec-dev"]);
    mkdirSync(base, { recursive: true });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("the library specs: init, then tsc passes; a new relation appends its stub to the existing module, once", () => {
    const dir = join(base, "library");
    const made = twinspec(
      "init",
      dir,
      "--openapi",
      "test/fixtures/library/openapi.yaml",
      "--graphql",
      "test/fixtures/library/schema.graphql",
    );
    assert.equal(made.status, 0, made.stdout + made.stderr);
    assert.match(
      made.stdout,
      /wrote src\/domain\/loans\.ts \(new file: createService, Loan, ownerOf, get, listByParents\)/,
    );
    assert.equal(
      json(join(dir, "package.json")).scripts.typecheck,
      "tsc --noEmit",
      "npm start names npm run typecheck",
    );
    let check = typecheck(dir);
    assert.equal(check.status, 0, check.stdout + check.stderr);

    // Renewal.loan: a relation naming one loan by its loanId, so the loans service must now answer getMany.
    const loans = readFileSync(join(dir, "src/domain/loans.ts"), "utf8");
    const openapi = readFileSync(join(dir, "openapi.yaml"), "utf8");
    writeFileSync(
      join(dir, "openapi.yaml"),
      openapi.replace("x-graphql: Query.loan\n", "x-graphql: [Query.loan, Renewal.loan]\n"),
    );
    const sdl = readFileSync(join(dir, "schema.graphql"), "utf8");
    writeFileSync(
      join(dir, "schema.graphql"),
      sdl.replace(
        "type Renewal {\n  renewalId: ID!\n  loanId: ID!\n",
        'type Renewal {\n  renewalId: ID!\n  loanId: ID!\n  loan: Loan @auth(scopes: ["library:read"])\n',
      ),
    );
    const generated = spawnSync(process.execPath, [bin, "generate"], { encoding: "utf8", cwd: dir });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
    assert.match(generated.stdout, /wrote src\/domain\/loans\.ts \(stubs: getMany\)/);
    assert.match(
      generated.stdout,
      /src\/domain\/loans\.ts: its service now needs getMany \(Renewal\.loan reads one by id\)/,
    );
    assert.doesNotMatch(
      generated.stdout,
      /src\/domain\/(members|books|renewals)\.ts/,
      "only the module that needs more",
    );
    const now = readFileSync(join(dir, "src/domain/loans.ts"), "utf8");
    assert.match(
      now,
      /  async getMany\(ids: readonly string\[\]\): Promise<Loan\[\]> \{\n    throw new NotImplementedError\("loans\.getMany"\);\n  \}\n\}\n\nexport function createService/,
    );
    assert.equal(
      now.replace(/\n  \/\*\*[^\n]*\n  async getMany[\s\S]*?\n  \}\n(?=\}\n)/, ""),
      loans,
      "what was there is kept, byte for byte",
    );
    assert.equal(now.match(/^import .*\bNotImplementedError\b/gm)?.length, 1, "one import of NotImplementedError");
    check = typecheck(dir);
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });

  it("the commerce service's own specs: init, then tsc passes", () => {
    const dir = join(base, "commerce");
    const made = twinspec("init", dir, "--openapi", "../../openapi.yaml", "--graphql", "../../schema.graphql");
    assert.equal(made.status, 0, made.stdout + made.stderr);
    const check = typecheck(dir);
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });
});

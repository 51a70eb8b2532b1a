// npm run build (twinspec build, the runtime's twinspec-app build: packages/twinspec/bin/build.mjs) never leaves compiled output whose source is gone: a deleted module or migration
// must not be served, nor run, from dist/.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { removeOrphans } from "../../packages/twinspec/bin/build.mjs";
import { linkModules } from "../support/staging.js";

describe("npm run build", function () {
  this.timeout(120_000);

  it("removes compiled files (and folders) whose source is gone, and keeps the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "twinspec-build-"));
    try {
      const src = join(dir, "src");
      const out = join(dir, "out");
      mkdirSync(join(src, "kept"), { recursive: true });
      mkdirSync(join(out, "kept"), { recursive: true });
      mkdirSync(join(out, "gone"), { recursive: true });
      writeFileSync(join(src, "kept/a.ts"), "");
      for (const f of [
        "kept/a.js",
        "kept/a.js.map",
        "kept/a.d.ts",
        "kept/b.js",
        "kept/b.js.map",
        "gone/c.js",
        ".tsbuildinfo",
      ])
        writeFileSync(join(out, f), "");
      removeOrphans(out, src);
      assert.deepEqual(
        ["kept/a.js", "kept/a.js.map", "kept/a.d.ts", "kept/b.js", "kept/b.js.map", "gone", ".tsbuildinfo"].map((f) =>
          existsSync(join(out, f)),
        ),
        [true, true, true, false, false, false, true],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // In a copy of the application, with the runtime package installed under its node_modules (its bin/ and
  // package.json copied, its dist/ linked, the rest of node_modules linked to this checkout's), as a user's
  // application has it: the build compiles the application alone, and this checkout's dist/, which the suites beside
  // serve from, is left as it is.
  it("a migration deleted from src/migrations is not left in dist/app for npm start to run", () => {
    const app = mkdtempSync(join(tmpdir(), "twinspec-build-app-"));
    try {
      for (const entry of [
        "package.json",
        "tsconfig.json",
        "tsconfig.build.json",
        "src",
        "generated",
        "client/generated",
      ])
        cpSync(entry, join(app, entry), { recursive: true });
      const modules = join(app, "node_modules");
      linkModules(resolve("node_modules"), modules, app, new Set(["twinspec"]));
      const runtime = join(modules, "twinspec");
      mkdirSync(runtime);
      cpSync("packages/twinspec/package.json", join(runtime, "package.json"));
      cpSync("packages/twinspec/bin", join(runtime, "bin"), { recursive: true });
      symlinkSync(resolve("packages/twinspec/dist"), join(runtime, "dist"));
      const stray = join(app, "dist/app/src/migrations/999_deleted.js");
      mkdirSync(dirname(stray), { recursive: true });
      writeFileSync(stray, "export async function up(db) { await db.schema.createTable('jobs').execute(); }\n");
      const run = spawnSync(process.execPath, [join(runtime, "bin/twinspec-app.js"), "build"], {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, TWINSPEC_ROOT: app },
      });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.doesNotMatch(run.stderr, /packages\/twinspec\/dist/, "the runtime package is not rebuilt");
      assert.equal(existsSync(stray), false);
      assert.ok(
        existsSync(join(app, "dist/app/src/migrations/001_customers.js")),
        "the migrations whose source is there are built",
      );
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});

// npm run build (twinspec build, the runtime's twinspec-app build: packages/twinspec/bin/build.mjs) never leaves compiled output whose source is gone: a deleted module or migration
// must not be served, nor run, from dist/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, removeOrphans } from "../../packages/twinspec/bin/build.mjs";

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

  it("a migration deleted from src/migrations is not left in dist/app for npm start to run", () => {
    const stray = join("dist/app/src/migrations/999_deleted.js");
    mkdirSync("dist/app/src/migrations", { recursive: true });
    writeFileSync(stray, "export async function up(db) { await db.schema.createTable('jobs').execute(); }\n");
    build();
    assert.equal(existsSync(stray), false);
    assert.ok(existsSync("dist/app/src/migrations/001_customers.js"), "the migrations whose source is there are built");
  });
});

// pg is an optional peer dependency of twinspec: an application served from SQLite does not install it, and one whose
// DATABASE_URL names PostgreSQL without it stops at start with the one line that installs it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PgNotInstalledError, loadPg } from "../../src/store/pg-driver.js";

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Record<
  string,
  Record<string, unknown>
>;

describe("pg: an optional peer, loaded for a postgres:// URL only", () => {
  it("missing, it is one line naming the npm install of the peer range", async () => {
    const range = (manifest.peerDependencies as Record<string, string>).pg;
    const absent = Object.assign(
      new Error("Cannot find package 'pg' imported from /app/node_modules/twinspec/dist/chunks/x.js"),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    const error = await loadPg(() => Promise.reject(absent)).then(
      () => assert.fail("loaded"),
      (e: Error) => e,
    );
    assert.ok(error instanceof PgNotInstalledError, String(error));
    assert.doesNotMatch(error.message, /\n/);
    assert.ok(error.message.endsWith(`run \`npm install pg@${range}\``), error.message);
  });

  it("another failure is thrown as it came; installed, pg loads", async () => {
    const other = Object.assign(new Error("Cannot find package 'pg-native' imported from x.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await assert.rejects(
      loadPg(() => Promise.reject(other)),
      (e) => e === other,
    );
    assert.equal(typeof (await loadPg()).Pool, "function");
  });

  it("is an optional peer and a devDependency (what the tests run), not a dependency", () => {
    assert.equal((manifest.peerDependenciesMeta as Record<string, { optional?: boolean }>).pg?.optional, true);
    assert.ok((manifest.devDependencies as Record<string, string>).pg);
    assert.equal((manifest.dependencies as Record<string, string>).pg, undefined);
  });
});

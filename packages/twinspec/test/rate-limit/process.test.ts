// The rate-limit variables reach a server started as `npm start` starts it: RATE_LIMITS replaces a budget and
// RATE_LIMIT_FACTOR scales it; a mistake in them stops the start, saying what.
import assert from "node:assert/strict";
import { call } from "../support/server.js";
import { runFixture, startProcess, type ServerProcess } from "../support/process.js";
import { clearOfWindowEnd } from "./helpers.js";

describe("rate limits from the environment", function () {
  this.timeout(60_000);
  let server: ServerProcess | undefined;
  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
  });

  it("RATE_LIMITS=default=600/3600 and RATE_LIMIT_FACTOR=0.01: six requests an hour", async () => {
    await clearOfWindowEnd();
    server = await startProcess({
      DATABASE_URL: "sqlite::memory:",
      RATE_LIMITS: "default=600/3600",
      RATE_LIMIT_FACTOR: "0.01",
    });
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push(await call(`${server.url}/authors`));
    assert.deepEqual(
      statuses.map((r) => r.status),
      [200, 200, 200, 200, 200, 200, 429, 429],
    );
    assert.equal(statuses[0].headers.get("ratelimit-policy"), '"default";q=6;w=3600');
  });

  it("a budget the specs do not declare stops the start", () => {
    const run = runFixture({ RATE_LIMITS: "everything=5/60" });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /twinspec: RATE_LIMITS names everything, which the specs do not declare/);
  });
});

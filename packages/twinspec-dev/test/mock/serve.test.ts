// An application's `npm run mock` as users run it (the fixture's src/mock.ts, serveMock): on HOST/PORT from the environment, without AUTH_SECRET a logged dev token that
// works, REST and GraphQL answered from the specs, no database opened, SIGTERM → exit 0.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProcess } from "../../../twinspec/test/support/process.js";
import { call, gql } from "../../../twinspec/test/support/server.js";

describe("npm run mock (serveMock, the fixture's src/mock.ts)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "twinspec-mock-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("serves REST and GraphQL from the specs with the logged dev token, opens no database, stops on SIGTERM", async () => {
    const database = join(dir, "data", "twinspec.db");
    const mock = await startProcess(
      { AUTH_SECRET: "", NODE_ENV: "development", DATABASE_URL: `sqlite:${database}`, MAX_HEADER_BYTES: "4096" },
      "src/mock.ts",
    );
    try {
      const token = /"token":"([^"]+)"/.exec(mock.output())![1];
      const auth = { authorization: `Bearer ${token}` };
      assert.deepEqual((await call(`${mock.url}/healthz`)).json, { status: "ok" });
      const got = await call(`${mock.url}/authors/aut_1`, { headers: auth });
      assert.deepEqual([got.status, got.json.authorId, got.json.name], [200, "aut_1", "Ada Lovelace"]);
      assert.equal((await call(`${mock.url}/authors/aut_1`, { headers: { ...auth, prefer: "code=404" } })).status, 404);
      assert.equal(
        (await call(`${mock.url}/authors/aut_1`)).status,
        401,
        "the test suite's own secret is not this server's",
      );
      const q = await gql(mock.url, `{ note(noteId: "not_1") { noteId title } }`, undefined, { token });
      assert.deepEqual(q.json, { data: { note: { noteId: "not_1", title: "Groceries" } } });
      assert.equal(existsSync(database) || existsSync(join(dir, "data")), false, "the mock opens no database");
      // The server's limits hold here too: Node's refusal of a header section over MAX_HEADER_BYTES is a problem.
      const big = await call(`${mock.url}/healthz`, { headers: { "x-big": "a".repeat(5_000) } });
      assert.equal(big.status, 431);
      assert.match(big.headers.get("content-type") ?? "", /application\/problem\+json/);
    } finally {
      mock.child.kill("SIGTERM");
    }
    assert.equal(await mock.exited, 0, mock.output());
    assert.match(mock.output(), /"msg":"stopped"/);
  });
});

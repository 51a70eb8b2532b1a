// The shared counts of PostgreSQL going away (PostgreSQL pass only): the limiter does not wait for them nor fail with
// them. While the database is cut, requests get the domain's 503 with the RateLimit fields, and 429 once the caller
// has spent its budget in this process — never a 500; restored, what was counted meanwhile is added to the shared
// totals.
import assert from "node:assert/strict";
import pg from "pg";
import { token } from "../support/auth.js";
import { freshDatabase, testDatabaseKind, testPostgresUrl, type TestDatabase } from "../support/database.js";
import { call, startServer, type TestServer } from "../support/server.js";
import { TcpProxy, type Cut } from "../support/tcp-proxy.js";
import { clearOfWindowEnd, fields, hourly } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

(testDatabaseKind() === "postgres" ? describe : describe.skip)("rate limits while PostgreSQL is away", function () {
  this.timeout(90_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let s: TestServer;

  beforeEach(async () => {
    await clearOfWindowEnd();
    database = await freshDatabase("postgres");
    const target = new URL(testPostgresUrl());
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    s = await startServer({
      database: { ...database, url: proxy.url(database.url) },
      store: { availability: { pingMs: 100, pingTimeoutMs: 400 } },
      rateLimits: { overrides: hourly({ default: 8 }) },
    });
  });
  afterEach(async () => {
    await proxy.restore().catch(() => {});
    await s.close();
    await proxy.close();
    await database.drop();
  });

  const sharedTotal = async (sub: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query("select sum(used)::int as used from rate_limits where key = $1", [
        `default|s:${sub}`,
      ]);
      return rows[0].used as number | null;
    } finally {
      await client.end();
    }
  };

  for (const how of ["refuse", "blackhole"] satisfies Cut[]) {
    it(`${how}: 503 with the RateLimit fields, then 429 from the count in this process; the counts reach the database once it is back`, async () => {
      const sub = `outage-${how}`;
      const headers = { authorization: `Bearer ${await token(sub, "admin")}` };
      for (let i = 0; i < 3; i++) assert.equal((await call(`${s.url}/authors`, { headers })).status, 200);
      await proxy.cut(how);
      const during = [];
      for (let i = 0; i < 7; i++) {
        const res = await call(`${s.url}/authors`, { headers });
        during.push(`${res.status}:${fields(res.headers).remaining}`);
      }
      // Each request is counted (the first ones may still find a live connection); none is a 500.
      assert.ok(
        during.every((d) => /^(200|503|429):\d+$/.test(d)),
        during.join(" "),
      );
      assert.deepEqual(during.slice(-2), ["429:0", "429:0"]);
      assert.deepEqual(
        during.slice(0, 5).map((d) => d.split(":")[1]),
        ["4", "3", "2", "1", "0"],
      );
      await proxy.restore();
      const deadline = Date.now() + 20_000;
      while ((await sharedTotal(sub)) !== 8) {
        assert.ok(Date.now() < deadline, `shared total ${await sharedTotal(sub)}, want 8`);
        await sleep(100);
      }
    });
  }
});

// The availability probe tells a database slow to accept connections from one that is gone (PostgreSQL pass only).
// The server reaches PostgreSQL through a TCP proxy that holds every new connection back longer than the probe's
// ping timeout, as a loaded machine can: the probe must not take that for an outage (it answered 503 to the first
// requests after a start, and kept doing so while connections stayed slow); a refused database is still found at
// once, and found back once it returns, however slowly it accepts.
import assert from "node:assert/strict";
import { token } from "../support/auth.js";
import { freshDatabase, testDatabaseKind, testPostgresUrl, type TestDatabase } from "../support/database.js";
import { call, startServer, type TestServer } from "../support/server.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { sleep, until } from "../support/wait.js";

(testDatabaseKind() === "postgres" ? describe : describe.skip)("the database's availability probe", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let s: TestServer | undefined;

  before(async () => {
    database = await freshDatabase("postgres");
    const target = new URL(testPostgresUrl());
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  });
  after(async () => {
    await s?.close();
    await proxy.close();
    await database.drop();
  });

  it("connections slower to open than the ping timeout are not an outage; a refusal is, and its end is found", async () => {
    proxy.connectDelayMs = 700;
    s = await startServer({
      database: { ...database, url: proxy.url(database.url) },
      store: { availability: { pingMs: 100, pingTimeoutMs: 300 } },
    });
    const headers = { authorization: `Bearer ${await token("probe-slow", "admin")}` };
    // The probe opens its connection as the server starts: the first requests meet it still opening.
    const statuses: number[] = [];
    for (const started = Date.now(); Date.now() - started < 2_000; await sleep(50)) {
      statuses.push((await call(`${s.url}/authors`, { headers })).status);
    }
    assert.deepEqual([...new Set(statuses)], [200], `answers while connections were slow: ${statuses.join(" ")}`);
    assert.equal((await call(`${s.url}/readyz`)).status, 200);

    await proxy.cut("refuse");
    await until(async () => (await call(`${s!.url}/readyz`)).status === 503, "the refusal to be noticed", 5_000);
    const down = await call(`${s.url}/authors`, { headers });
    assert.equal(down.status, 503, down.text);
    assert.equal(down.json.type, "urn:twinspec:problem:unavailable");

    await proxy.restore();
    await until(async () => (await call(`${s!.url}/readyz`)).status === 200, "the database to be found back", 10_000);
    assert.equal((await call(`${s.url}/authors`, { headers })).status, 200);
  });
});

// The process as users run it: config from env, listen, graceful SIGTERM, data kept across restarts.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_TOKEN } from "./support/auth.js";
import { startProcess } from "./support/process.js";
import { ada, call } from "./support/server.js";

describe("main.ts process", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "twinspec-main-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("serves, finishes in-flight requests on SIGTERM, closes the database, exits 0; data survives the restart", async () => {
    const databaseUrl = `sqlite:${join(dir, "db", "twinspec.db")}`;
    const first = await startProcess({ DATABASE_URL: databaseUrl });
    const created = await call(`${first.url}/customers`, { method: "POST", json: ada });
    assert.equal(created.status, 201);
    // A request in flight when the signal arrives: its body is still being sent.
    const slow = fetch(`${first.url}/customers`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('{"firstName":"Slow","lastName":"Poke",'));
          await new Promise((r) => setTimeout(r, 300));
          controller.enqueue(new TextEncoder().encode('"email":"slow@example.com"}'));
          controller.close();
        },
      }),
      duplex: "half",
    });
    await new Promise((r) => setTimeout(r, 100));
    first.child.kill("SIGTERM");
    const slowRes = await slow;
    assert.equal(slowRes.status, 201);
    assert.equal(await first.exited, 0, first.output());
    assert.match(first.output(), /"msg":"stopped"/);

    const second = await startProcess({ DATABASE_URL: databaseUrl });
    try {
      const got = await call(`${second.url}/customers/${created.json.customerId}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.json, created.json);
      const list = await call(`${second.url}/customers`);
      assert.deepEqual(
        list.json.items.map((c: { firstName: string }) => c.firstName),
        ["Ada", "Slow"],
      );
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });

  it("without AUTH_SECRET: in production it refuses to start, saying why; in development it logs a working admin token", async () => {
    await assert.rejects(
      startProcess({ AUTH_SECRET: "", NODE_ENV: "production", DATABASE_URL: "sqlite::memory:" }),
      /AUTH_SECRET is not set/,
    );
    const dev = await startProcess({ AUTH_SECRET: "", NODE_ENV: "development", DATABASE_URL: "sqlite::memory:" });
    try {
      const token = /"token":"([^"]+)"/.exec(dev.output())![1];
      assert.equal((await call(`${dev.url}/customers`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
      assert.equal(
        (await call(`${dev.url}/customers`)).status,
        401,
        "the test suite's own secret is not this server's",
      );
    } finally {
      dev.child.kill("SIGTERM");
      await dev.exited;
    }
  });

  it("refuses to start on a DATABASE_URL it cannot use, saying why", async () => {
    await assert.rejects(startProcess({ DATABASE_URL: "mysql://nope" }), /not supported/);
  });

  it("runs the service's own Koa middleware (src/main.ts) for a REST operation, a GraphQL POST, /healthz and /docs, with and without an Origin", async () => {
    const origin = "https://shop.example";
    const served = await startProcess({
      DATABASE_URL: `sqlite:${join(dir, "db", "twinspec.db")}`,
      CORS_ORIGINS: origin,
    });
    try {
      const created = await call(`${served.url}/customers`, { method: "POST", json: ada });
      const requests: [string, Parameters<typeof call>[1]][] = [
        [`/customers/${created.json.customerId}`, {}],
        ["/graphql", { method: "POST", json: { query: "{ __typename }" } }],
        ["/healthz", {}],
        ["/docs", {}],
      ];
      for (const [path, init] of requests) {
        for (const headers of [{}, { origin }] as Record<string, string>[]) {
          const reply = await call(`${served.url}${path}`, { ...init, headers });
          const what = `${init?.method ?? "GET"} ${path} ${"origin" in headers ? "with" : "without"} an Origin`;
          assert.equal(reply.status, 200, what);
          assert.equal(reply.headers.get("x-content-type-options"), "nosniff", what);
          assert.equal(reply.headers.get("x-frame-options"), "DENY", what);
          assert.equal(reply.headers.get("access-control-allow-origin"), "origin" in headers ? origin : null, what);
        }
      }
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });
});

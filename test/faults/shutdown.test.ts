// A deploy in the middle of traffic: SIGTERM to a real server process (src/main.ts) while 200 keep-alive
// connections send requests without pause, and subscribers listen over graphql-ws and SSE. Every request the
// server took gets its real answer (none is cut off: no reset on a connection it had accepted); new connections are
// refused; subscriptions are completed and their sockets closed (1001); the process exits 0 within
// SHUTDOWN_GRACE_MS; every acknowledged write is in the database afterwards.
import assert from "node:assert/strict";
import http from "node:http";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { openStore } from "../../packages/twinspec/src/store/database.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { startProcess } from "../support/process.js";
import { ada, call } from "../support/server.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SUBSCRIBE = `subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId status } }`;

interface Outcome {
  /** the request went out on a connection that had already carried one (the server had accepted the connection) */
  reused: boolean;
  status?: number;
  connection?: string;
  error?: string;
  id?: string;
}

/** One request over the agent, with what happened to it. */
function send(agent: http.Agent, url: URL, method: string, path: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          let id: string | undefined;
          try {
            id = JSON.parse(text).customerId;
          } catch {
            // not a customer: the answer's status says what happened
          }
          resolve({ reused: req.reusedSocket, status: res.statusCode, connection: res.headers.connection, id });
        });
        res.on("error", (e: NodeJS.ErrnoException) =>
          resolve({ reused: req.reusedSocket, error: e.code ?? e.message }),
        );
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ reused: req.reusedSocket, error: e.code ?? e.message }));
    req.end(body);
  });
}

describe("shutdown under load (SIGTERM with 200 busy connections)", function () {
  this.timeout(90_000);
  let database: TestDatabase;
  beforeEach(async () => (database = await freshDatabase()));
  afterEach(() => database.drop());

  it("answers every accepted request, refuses new connections, closes subscriptions properly, exits 0 within SHUTDOWN_GRACE_MS", async () => {
    const graceMs = 8_000;
    const server = await startProcess({
      DATABASE_URL: database.url,
      SHUTDOWN_GRACE_MS: String(graceMs),
      NODE_ENV: "production",
    });
    const url = new URL(server.url);
    try {
      const customer = (await call(`${server.url}/customers`, { method: "POST", json: ada })).json.customerId as string;

      // Subscribers: graphql-ws and SSE.
      const wsEnds = Array.from({ length: 3 }, async () => {
        let closed!: (code: number) => void;
        const closeCode = new Promise<number>((resolve) => (closed = resolve));
        const client = createWsClient({
          url: `${server.url.replace("http", "ws")}/graphql`,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          lazy: false, // the socket stays open after the subscription, so the server's own close is seen
          onNonLazyError: () => {}, // the close (1001) is asserted below; graphql-ws would print it
          connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
          on: { closed: (event) => closed((event as { code: number }).code) },
        });
        const how = await (async () => {
          for await (const _ of client.iterate({ query: SUBSCRIBE, variables: { c: customer } }));
          return "completed";
        })().catch((error) => `failed: ${error?.code ?? error?.message ?? error}`);
        return { how, code: await closeCode };
      });
      const sseEnds = Array.from({ length: 2 }, async () => {
        const res = await fetch(`${server.url}/graphql/stream`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            authorization: `Bearer ${ADMIN_TOKEN}`,
          },
          body: JSON.stringify({ query: SUBSCRIBE, variables: { c: customer } }),
        });
        return res.text(); // resolves when the server ends the stream
      });
      await sleep(300);

      // 200 connections, each sending its next request as soon as the last is answered.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
      const outcomes: Outcome[] = [];
      let signalled = 0;
      const afterSignal: Outcome[] = [];
      const workers = Array.from({ length: 200 }, async (_, w) => {
        for (let i = 0; ; i++) {
          const kind = (w + i) % 3;
          const outcome = await (kind === 0
            ? send(agent, url, "POST", "/customers", JSON.stringify({ ...ada, email: `load-${w}-${i}@example.com` }))
            : kind === 1
              ? send(agent, url, "GET", `/customers/${customer}`)
              : send(
                  agent,
                  url,
                  "POST",
                  "/graphql",
                  JSON.stringify({ query: `{ customer(customerId: "${customer}") { email } }` }),
                ));
          outcomes.push(outcome);
          if (signalled) afterSignal.push(outcome);
          // A fresh connection refused: the server has stopped listening; this worker is done (so is one whose
          // request was cut off, which the test then reports).
          if (outcome.error) return;
        }
      });
      while (outcomes.length < 2_000) await sleep(20);

      // A health checker on a keep-alive connection opened before the signal.
      const checker = new http.Agent({ keepAlive: true, maxSockets: 1 });
      assert.equal((await send(checker, url, "GET", "/readyz")).status, 200);

      signalled = Date.now();
      server.child.kill("SIGTERM");
      // Until the server has taken the signal in (its event loop is busy with the load), /readyz still says 200.
      let ready = await send(checker, url, "GET", "/readyz");
      while (ready.status === 200 && Date.now() - signalled < 5_000) {
        await sleep(20);
        ready = await send(checker, url, "GET", "/readyz");
      }
      checker.destroy();
      const code = await server.exited;
      const exitMs = Date.now() - signalled;
      await Promise.all(workers);
      agent.destroy();

      const cutOff = outcomes.filter((o) => o.error && o.reused);
      const refused = outcomes.filter((o) => o.error && !o.reused);
      const answered = outcomes.filter((o) => o.status !== undefined);
      const notReal = answered.filter((o) => o.status !== 200 && o.status !== 201);
      console.log(
        `      ${answered.length} answered (${afterSignal.filter((o) => o.status).length} after SIGTERM, ${answered.filter((o) => o.connection === "close").length} with Connection: close), ` +
          `${refused.length} new connections refused (${[...new Set(refused.map((o) => o.error))].join(", ")}), ${cutOff.length} cut off; exit ${code} after ${exitMs} ms`,
      );
      assert.equal(code, 0, server.output());
      assert.ok(exitMs < graceMs, `exited ${exitMs} ms after SIGTERM`);
      assert.deepEqual(cutOff, [], "no request on an accepted connection was left without its answer");
      assert.deepEqual(notReal, [], "every answer is the real one");
      assert.ok(
        afterSignal.some((o) => o.status && o.connection === "close"),
        "requests answered during the drain say Connection: close",
      );
      assert.deepEqual(
        [ready.reused, ready.status, ready.connection],
        [true, 503, "close"],
        "/readyz: 503 while stopping",
      );
      assert.equal(refused.length, 200, "every worker ended on a refused new connection");
      assert.ok(
        refused.every((o) => o.error === "ECONNREFUSED" || o.error === "ECONNRESET"),
        "refused, not hung",
      );

      for (const end of await Promise.all(wsEnds)) assert.deepEqual(end, { how: "completed", code: 1001 });
      for (const text of await Promise.all(sseEnds)) assert.match(text, /event: complete\n/);

      // Every acknowledged write is in the database.
      const store = await openStore(database.url);
      try {
        const stored = new Set(
          (await store.db.selectFrom("customers").select("customer_id").execute()).map((r) => r.customer_id),
        );
        const acknowledged = answered.filter((o) => o.status === 201).map((o) => o.id!);
        assert.ok(acknowledged.length > 100);
        assert.deepEqual(
          acknowledged.filter((id) => !stored.has(id)),
          [],
        );
      } finally {
        await store.close();
      }
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });
});

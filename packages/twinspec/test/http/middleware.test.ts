// An application's own Koa middleware (App.use, serve's `middleware`) runs for every request: the spec's operations,
// GraphQL over HTTP, health and the docs, on the hot paths (no Origin) and through Koa's whole chain (an Origin), after
// Twinspec's edge and in the order added.
import assert from "node:assert/strict";
import type { Middleware } from "koa";
import { call, newAuthor, startServer, type TestServer } from "../support/server.js";

const ORIGIN = "https://app.example";

describe("the application's Koa middleware (App.use)", () => {
  let s: TestServer;
  const seen: string[] = [];
  const first: Middleware = async (ctx, next) => {
    // After the edge: the request already has its id.
    ctx.set("X-App-First", String(ctx.state.requestId ?? "none"));
    seen.push(ctx.path);
    await next();
  };
  const second: Middleware = async (ctx, next) => {
    ctx.set("X-App-Order", ctx.response.get("X-App-First") ? "after-first" : "before-first");
    await next();
  };
  before(async () => (s = await startServer({ corsOrigins: [ORIGIN], middleware: [first, second] })));
  after(() => s.close());

  it("runs for a REST operation, a GraphQL POST, /healthz and /docs, with and without an Origin", async () => {
    const { authorId } = await newAuthor(s.url);
    const requests: [string, Parameters<typeof call>[1]][] = [
      [`/authors/${authorId}`, {}],
      ["/graphql", { method: "POST", json: { query: "{ __typename }" } }],
      ["/healthz", {}],
      ["/docs", {}],
    ];
    for (const [path, init] of requests) {
      for (const origin of [undefined, ORIGIN]) {
        const reply = await call(`${s.url}${path}`, { ...init, headers: origin ? { origin } : {} });
        const where = `${init?.method ?? "GET"} ${path} ${origin ? "with" : "without"} an Origin`;
        assert.ok(reply.status < 400, `${where}: ${reply.status}`);
        assert.equal(
          reply.headers.get("x-app-first"),
          reply.headers.get("x-request-id"),
          `${where}: after the edge gave the request its id`,
        );
        assert.equal(reply.headers.get("x-app-order"), "after-first", `${where}: in the order added`);
      }
    }
    assert.ok(seen.length >= 8);
  });

  it("refuses to be added once the server has taken a request", async () => {
    await call(`${s.url}/healthz`);
    assert.throws(() => s.app.use(async (_ctx, next) => next()), /before it listens/);
  });
});

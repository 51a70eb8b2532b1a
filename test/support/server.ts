// A real server for tests: the app from buildApp on an ephemeral 127.0.0.1 port, over a fresh SQLite file.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App, type AppDeps } from "../../src/app.js";
import { createMetrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { openStore, type Store } from "../../src/store/database.js";

export interface TestServer {
  url: string;
  app: App;
  store: Store;
  close(): Promise<void>;
}

export async function startServer(
  options: { bodyLimit?: number; corsOrigins?: string[] } & Pick<AppDeps, "graphql" | "wsKeepAliveMs" | "jobs"> & { logger?: AppDeps["logger"] } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "twinspec-test-"));
  const metrics = createMetrics();
  const store = await openStore(`sqlite:${join(dir, "test.db")}`, { onQuery: metrics.onQuery });
  const app = buildApp({
    store,
    metrics,
    graphql: options.graphql,
    wsKeepAliveMs: options.wsKeepAliveMs,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    bodyLimit: options.bodyLimit,
    corsOrigins: options.corsOrigins,
    jobs: options.jobs ?? { pollMs: 50, leaseMs: 1000 },
  });
  app.start();
  const server: Server = createServer(app.koa.callback());
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    async close() {
      // Subscriptions first: WebSocket connections are not among those closeAllConnections ends.
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** fetch + JSON body (when there is one). */
export async function call(url: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export async function gql(base: string, query: string, variables?: Record<string, unknown>) {
  return call(`${base}/graphql`, { method: "POST", json: { query, variables }, headers: { accept: "application/graphql-response+json" } });
}

export const ada = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };

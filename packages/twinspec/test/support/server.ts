// A real server for the package's tests: the fixture application (test/fixture) from buildApp on an ephemeral 127.0.0.1 port, over a fresh database
// (SQLite file, or a PostgreSQL schema with TEST_DATABASE=postgres: see database.ts).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildApp, type App, type AppDeps } from "../../src/app.js";
import { createHttpServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from "../../src/http/limits.js";
import { createMetrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { openStore, type Store, type StoreOptions } from "../../src/store/database.js";
import { definition } from "../fixture/generated/wiring.js";
import { ADMIN_TOKEN, TEST_SECRET } from "./auth.js";
import { freshDatabase, type TestDatabase } from "./database.js";

export interface TestServer {
  url: string;
  app: App;
  store: Store;
  close(): Promise<void>;
}

/**
 * A switch for database failures: while `armed`, every query fails — with an error nobody expects, or (kind
 * "unavailable") with SQLite's I/O error, as when the disk or the database is gone.
 */
export interface Faults {
  armed: boolean;
  kind?: "unexpected" | "unavailable";
}

const faultHook = (faults: Faults) => () => {
  if (!faults.armed) return;
  if (faults.kind === "unavailable") throw Object.assign(new Error("disk I/O error (injected)"), { code: "SQLITE_IOERR_WRITE" });
  throw new Error("injected fault: the database is in a state nobody planned for");
};

/**
 * Rate limits are the specs' scaled by 1000 unless `rateLimits` says otherwise, as the benches run: suites send far
 * more than one caller's budget, and the limits have their own tests (test/rate-limit/).
 */
export const TEST_RATE_LIMITS = { factor: 1000 };

export async function startServer(
  options: { bodyLimit?: number; corsOrigins?: string[]; faults?: Faults; /** null: no HS256 secret at all */ authSecret?: string | null } & Pick<AppDeps, "graphql" | "wsKeepAliveMs" | "jobs" | "tracing" | "identity" | "rateLimits"> & { logger?: AppDeps["logger"] } & { database?: TestDatabase; store?: Omit<StoreOptions, "onQuery" | "countQuery">; server?: Partial<ServerLimits> } = {},
): Promise<TestServer> {
  // A database passed in is shared with other servers (several instances) and left for its owner to drop.
  const database = options.database ?? (await freshDatabase());
  const metrics = createMetrics();
  const traceQuery = options.tracing?.query(database.kind);
  const store = await openStore(database.url, { ...options.store, countQuery: metrics.onQuery, onQuery: traceQuery, beforeQuery: options.faults ? faultHook(options.faults) : undefined });
  const app = buildApp({
    definition,
    store,
    authSecret: options.authSecret === null ? undefined : (options.authSecret ?? TEST_SECRET),
    identity: options.identity,
    metrics,
    graphql: options.graphql,
    wsKeepAliveMs: options.wsKeepAliveMs,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    bodyLimit: options.bodyLimit,
    corsOrigins: options.corsOrigins,
    tracing: options.tracing,
    jobs: options.jobs ?? { pollMs: 50, leaseMs: 1000 },
    maxUrlLength: options.server?.maxUrlLength,
    rateLimits: options.rateLimits ?? TEST_RATE_LIMITS,
  });
  app.start();
  await app.bus.ready?.();
  // The server main.ts runs: its timeouts and size limits (src/http/limits.ts).
  const server: Server = createHttpServer(app.callback, { ...DEFAULT_SERVER_LIMITS, ...options.server });
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
      if (!options.database) await database.drop();
    },
  };
}

/**
 * fetch + JSON body (when there is one). Sends the admin token unless the caller sets Authorization itself
 * or passes `anonymous: true`.
 */
export async function call(url: string, init: RequestInit & { json?: unknown; anonymous?: boolean } = {}) {
  const headers = new Headers(init.headers);
  if (!init.anonymous && !headers.has("authorization")) headers.set("authorization", `Bearer ${ADMIN_TOKEN}`);
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

export async function gql(base: string, query: string, variables?: Record<string, unknown>, auth: { token?: string } = {}) {
  const headers: Record<string, string> = { accept: "application/graphql-response+json" };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  return call(`${base}/graphql`, { method: "POST", json: { query, variables }, headers, anonymous: auth.token === "" });
}

export const ada = { name: "Ada Lovelace" };

/** A new author (admin), and a note it wrote. */
export async function newAuthor(base: string, name = "Ada Lovelace"): Promise<{ authorId: string }> {
  const res = await call(`${base}/authors`, { method: "POST", json: { name } });
  if (res.status !== 201) throw new Error(`createAuthor: ${res.status} ${res.text}`);
  return res.json;
}

export async function newNote(base: string, authorId: string, note = { title: "Groceries", body: "Milk" }): Promise<{ noteId: string }> {
  const res = await call(`${base}/authors/${authorId}/notes`, { method: "POST", json: note });
  if (res.status !== 201) throw new Error(`writeNote: ${res.status} ${res.text}`);
  return res.json;
}

/** An author with `notes` notes, made through the domain services. */
export async function seedAuthor(s: TestServer, n: number, { notes = 0 } = {}) {
  const { authors, notes: noteService } = s.app.services;
  const author = await authors.create({ name: `Author ${n}` });
  const written = [];
  for (let i = 0; i < notes; i++) written.push(await noteService.create(author.authorId, { title: `Note ${i}`, body: "text" }));
  return { ...author, notes: written as { noteId: string }[] };
}

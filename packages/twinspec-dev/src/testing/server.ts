// A real server for tests: the application's `definition` given to buildApp, on an ephemeral 127.0.0.1 port, over a
// fresh database (SQLite file, or a PostgreSQL schema with TEST_DATABASE=postgres: see database.ts), with what the
// walks need: a switch that makes every query fail (through openStore's beforeQuery), a body limit, rate limits, and
// the recording of every (operation, status) answered (coverage.ts).
import type { Middleware } from "koa";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildApp, type App, type AppDeps } from "twinspec/internals";
import type { AppDefinition } from "twinspec/internals";
import { createHttpServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from "twinspec/internals";
import { createMetrics } from "twinspec/internals";
import { createLogger } from "twinspec/internals";
import { openStore, type Store, type StoreOptions } from "twinspec/internals";
import { recordStatuses } from "./coverage.js";
import { freshDatabase, type TestDatabase } from "./database.js";
import { TEST_SECRET } from "./tokens.js";

/** A test server, listening (`startServer`). */
export interface TestServer {
  /** its URL ("http://127.0.0.1:PORT") */
  url: string;
  /** the application it serves (its services, bus, metrics) */
  app: App;
  /** its database */
  store: Store;
  /** stops it: ends subscriptions and connections, closes the store, drops the database unless `options.database` was given */
  close(): Promise<void>;
}

/**
 * A switch for database failures: while `armed`, every query fails — with an error nobody expects, or (kind
 * "unavailable") with SQLite's I/O error, as when the disk or the database is gone.
 */
export interface Faults {
  /** true: every query fails (set and reset it during a test) */
  armed: boolean;
  /** how queries fail: "unexpected" (default: an error nobody expects, a masked 500) or "unavailable" (503) */
  kind?: "unexpected" | "unavailable";
}

const faultHook = (faults: Faults) => () => {
  if (!faults.armed) return;
  if (faults.kind === "unavailable")
    throw Object.assign(new Error("disk I/O error (injected)"), { code: "SQLITE_IOERR_WRITE" });
  throw new Error("injected fault: the database is in a state nobody planned for");
};

/**
 * Rate limits are the specs' scaled by 1000 unless `rateLimits` says otherwise, as the benches run: suites send far
 * more than one caller's budget, and the limits have walks of their own (429).
 */
export const TEST_RATE_LIMITS = { factor: 1000 };

/**
 * How `startServer` starts a server; every field is optional. Besides these, AppDeps's `graphql`, `wsKeepAliveMs`,
 * `jobs` (default poll 50 ms, lease 1 s), `events`, `tracing`, `identity`, `rateLimits` (default TEST_RATE_LIMITS),
 * `connections`, `graphiql`, `docs`, `metricsToken` and `metricsEndpoint`, as buildApp takes them.
 */
export type TestServerOptions = {
  /** largest request body, in bytes (default 1 MiB) */
  bodyLimit?: number;
  /** origins allowed to call from browsers (CORS); default none */
  corsOrigins?: string[];
  /** a switch that makes every query fail while armed; default none */
  faults?: Faults;
  /** null: no HS256 secret at all */
  authSecret?: string | null;
} & Pick<
  AppDeps,
  | "graphql"
  | "wsKeepAliveMs"
  | "jobs"
  | "events"
  | "webhooks"
  | "tracing"
  | "identity"
  | "rateLimits"
  | "connections"
  | "graphiql"
  | "docs"
  | "metricsToken"
  | "metricsEndpoint"
> & {
    /** the logger (default a silent one, or TEST_LOG_LEVEL's level) */
    logger?: AppDeps["logger"];
    /** a database shared with other servers (several instances), left for its owner to drop; default a fresh one */
    database?: TestDatabase;
    /** openStore's options (migrations folder, PostgreSQL pool and probe, beforeQuery) */
    store?: Omit<StoreOptions, "onQuery" | "countQuery">;
    /** the HTTP server's limits, over DEFAULT_SERVER_LIMITS */
    server?: Partial<ServerLimits>;
    /** the application's Koa middleware (App.use), as `serve`'s `middleware` adds it */
    middleware?: Middleware[];
    /** no background polling (jobs, the event log): only requests move db_queries_total, for tests that count queries */
    quiet?: boolean;
  };

/** A poll interval no test outlives. */
const NEVER_MS = 3_600_000;

/** The test servers of this process that are listening, by URL: what `settle` asks whether their jobs are done. */
const listening = new Map<string, TestServer>();

/** The listening test server of this process at `url` (undefined: none, or another process's server). */
export const testServerAt = (url: string): TestServer | undefined => listening.get(url);

/**
 * A real server for tests: `definition` given to buildApp over a fresh, migrated database, listening on an
 * ephemeral 127.0.0.1 port, its job queue started; tokens signed with TEST_SECRET verify, rate limits are the
 * specs' × 1000, and every (operation, status) it answers counts for statusCoverageGate. `close()` it after.
 *
 * @param definition - the application: generated/wiring.ts's `definition`
 * @param options - limits, faults, database and the AppDeps it passes on (`TestServerOptions`); default none
 */
export async function startServer(definition: AppDefinition, options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await freshDatabase());
  const metrics = createMetrics();
  const traceQuery = options.tracing?.query(database.kind);
  const store = await openStore(database.url, {
    ...options.store,
    countQuery: metrics.onQuery,
    onQuery: traceQuery,
    beforeQuery: options.faults ? faultHook(options.faults) : undefined,
  });
  const app = buildApp({
    definition,
    store,
    authSecret: options.authSecret === null ? undefined : (options.authSecret ?? TEST_SECRET),
    identity: options.identity,
    metrics,
    graphql: options.graphql,
    connections: options.connections,
    graphiql: options.graphiql,
    docs: options.docs,
    metricsToken: options.metricsToken,
    metricsEndpoint: options.metricsEndpoint,
    wsKeepAliveMs: options.wsKeepAliveMs,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    bodyLimit: options.bodyLimit,
    corsOrigins: options.corsOrigins,
    tracing: options.tracing,
    jobs: options.quiet ? { ...options.jobs, pollMs: NEVER_MS } : (options.jobs ?? { pollMs: 50, leaseMs: 1000 }),
    events: options.quiet ? { ...options.events, pollMs: NEVER_MS } : options.events,
    webhooks: options.quiet ? { ...options.webhooks, pollMs: NEVER_MS } : options.webhooks,
    maxUrlLength: options.server?.maxUrlLength,
    rateLimits: options.rateLimits ?? TEST_RATE_LIMITS,
  });
  for (const middleware of options.middleware ?? []) app.use(middleware);
  // Both before the first request: a test counting queries must not meet the queue's first pass or the bus's catch-up.
  await Promise.all([app.start(), app.bus.ready?.()]);
  // Outermost, so it sees the final status (after 304s and thrown problems).
  app.around(recordStatuses);
  // The server `serve` runs: its timeouts and size limits (server/factory.ts).
  const server: Server = createHttpServer(app.callback, { ...DEFAULT_SERVER_LIMITS, ...options.server });
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const started: TestServer = {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    async close() {
      listening.delete(started.url);
      // Subscriptions first: WebSocket connections are not among those closeAllConnections ends.
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      if (!options.database) await database.drop();
    },
  };
  listening.set(started.url, started);
  return started;
}

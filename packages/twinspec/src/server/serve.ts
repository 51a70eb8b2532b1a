// Process entry: config from env, open the store, listen; SIGTERM/SIGINT → refuse new connections, finish in-flight
// requests within the grace period, end subscriptions, close the database, exit 0.
import type { Middleware } from "koa";
import { buildApp } from "../app.js";
import type { AppDefinition } from "../definition.js";
import { createHttpServer } from "./factory.js";
import { createMetrics } from "../http/metrics.js";
import { drainable } from "./shutdown.js";
import { closeMetrics, listenMetrics } from "./metrics-listener.js";
import { createServerLogger } from "../logger.js";
import { configOrExit, logDevToken, pgOrExit, tracingOrExit } from "./startup.js";
import { isPostgresUrl, openStore } from "../store/database.js";

/** What `serve` takes besides the application; every field is optional. */
export interface ServeOptions {
  /** the application's migrations folder, applied after Twinspec's own (default: src/migrations of the project, if it exists) */
  migrations?: string;
  /** Koa middleware of the application, run for every request after Twinspec's edge, in this order (App.use) */
  middleware?: Middleware[];
}

/**
 * `npm start`: the application served on HOST:PORT with the configuration of the environment (README,
 * "Configuration"), on the database DATABASE_URL names, until SIGTERM or SIGINT. It reads the configuration (and
 * exits 1 naming what is wrong), opens and migrates the store, builds the app, listens, starts the job queue, and on
 * a signal drains within SHUTDOWN_GRACE_MS, closes the store and exits (0 when every request finished).
 *
 * @param definition - the application: generated/wiring.ts's `definition`
 * @param options - its migrations folder and Koa middleware (`ServeOptions`); default none
 */
export async function serve(definition: AppDefinition, options: ServeOptions = {}): Promise<void> {
  const config = configOrExit(definition.contract.rateLimits.budgets);
  // Tracing code is loaded only when an OTLP endpoint is set; without one, requests carry no tracing at all (and the
  // OpenTelemetry packages, optional peers of twinspec, need not be installed).
  const telemetry = await tracingOrExit(config);
  if (isPostgresUrl(config.databaseUrl)) await pgOrExit();
  const { logger, flush } = createServerLogger(config.logLevel, telemetry?.logFields);
  const tracing = telemetry?.startTracing({ ...config.tracing!, logger });
  const exit = (code: number) => {
    flush();
    process.exit(code);
  };
  // Metrics first: the store reports every query to db_queries_total (and to tracing, when on).
  const metrics = createMetrics({ defaults: true });
  const traceQuery = tracing?.query(isPostgresUrl(config.databaseUrl) ? "postgres" : "sqlite");
  const store = await openStore(config.databaseUrl, {
    migrations: options.migrations,
    countQuery: metrics.onQuery,
    onQuery: traceQuery,
    poolMax: config.databasePoolMax,
    connectTimeoutMs: config.database.connectTimeoutMs,
    availability: { pingMs: config.database.pingMs, pingTimeoutMs: config.database.pingTimeoutMs },
    logger,
  });
  const { jwksUrl, issuer, audience } = config.auth;
  const app = buildApp({
    definition,
    store,
    logger,
    authSecret: config.auth.secret,
    identity: { jwksUrl, issuer, audience },
    metricsToken: config.auth.metricsToken,
    metricsEndpoint: config.metrics.endpoint,
    graphiql: config.graphiql,
    docs: config.docs,
    connections: config.connections,
    metrics,
    graphql: config.graphql,
    bodyLimit: config.bodyLimit,
    responseValidation: config.responseValidation,
    jobs: config.jobs,
    events: config.events,
    webhooks: config.webhooks,
    corsOrigins: config.corsOrigins,
    maxUrlLength: config.server.maxUrlLength,
    tracing,
    rateLimits: config.rateLimits,
  });
  for (const middleware of options.middleware ?? []) app.use(middleware);
  // Timeouts and size limits against slow and abusive clients (src/server/factory.ts).
  const server = createHttpServer(app.callback, config.server, logger);
  const draining = drainable(server);
  // GraphQL subscriptions over WebSocket share this server's port (/graphql).
  app.attach(server);

  void app.start();
  // On PostgreSQL: hear other instances' events before taking requests, so no subscriber misses one.
  await app.bus.ready?.();
  await logDevToken(config, logger, definition.contract.scopes);
  // METRICS_PORT: /metrics on a listener of its own, before the main port opens.
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await listenMetrics(metrics, {
          host: config.host,
          port: config.metrics.port,
          token: config.auth.metricsToken,
          logger,
        });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info({ url: `http://${config.host}:${port}`, database: store.dialect }, "twinspec listening");
    // Written now, not with the next chunk: supervisors and scripts wait for this line.
    flush();
  });

  let stopping = false;
  let faulted = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    const grace = config.shutdownGraceMs;
    logger.info({ signal, graceMs: grace }, "shutting down: refusing new connections, finishing in-flight requests");
    // Whatever happens below, the process is gone shortly after the grace period.
    setTimeout(() => {
      logger.warn("shutdown did not complete in time; exiting");
      exit(1);
    }, grace + 4_000).unref();
    const drained = draining.drain(grace);
    // Subscriptions end now (graphql-ws complete + close 1001, SSE complete): they would hold their connections
    // open. Background work stops once the job in hand is done.
    await app.close();
    const clean = await drained;
    if (!clean) logger.warn({ graceMs: grace }, "requests still running at the end of the grace period were cut off");
    if (metricsServer) await closeMetrics(metricsServer);
    await store.close();
    // Exports the spans still batched; a collector that does not answer gets 3 s, not the whole shutdown budget.
    if (tracing) await Promise.race([tracing.shutdown(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    logger.info("stopped");
    exit(clean && !faulted ? 0 : 1);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // The last resort: a fault no request's error handling caught (an 'error' event nobody listens to, a rejection
  // nobody awaits) leaves the process in a state nobody planned for. It is logged with its stack, then the server
  // drains as on SIGTERM, so the requests in flight are still answered, and exits 1 for its supervisor to restart it.
  process.on("uncaughtException", (error, origin) => {
    logger.fatal({ err: error, origin }, "uncaught exception: draining and exiting");
    faulted = true;
    void shutdown(origin);
  });
}

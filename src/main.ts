// Process entry: config from env, open the store, listen; SIGTERM/SIGINT → stop accepting, finish in-flight
// requests, close the database, exit 0.
import { buildApp } from "./app.js";
import { createHttpServer } from "./http/limits.js";
import { createMetrics } from "./http/metrics.js";
import { drainable } from "./http/shutdown.js";
import { createServerLogger } from "./logger.js";
import { configOrExit, logDevToken } from "./serve.js";
import { openStore } from "./store/database.js";

const config = configOrExit();
const { logger, flush } = createServerLogger(config.logLevel);
const exit = (code: number) => {
  flush();
  process.exit(code);
};
// Metrics first: the store reports every query to db_queries_total.
const metrics = createMetrics({ defaults: true });
const store = await openStore(config.databaseUrl, {
  onQuery: metrics.onQuery,
  poolMax: config.databasePoolMax,
  connectTimeoutMs: config.database.connectTimeoutMs,
  availability: { pingMs: config.database.pingMs, pingTimeoutMs: config.database.pingTimeoutMs },
  logger,
});
const app = buildApp({ store, logger, authSecret: config.auth.secret, metricsToken: config.auth.metricsToken, metrics, graphql: config.graphql, bodyLimit: config.bodyLimit, responseValidation: config.responseValidation, jobs: config.jobs, corsOrigins: config.corsOrigins, maxUrlLength: config.server.maxUrlLength });
const { koa } = app;
// Timeouts and size limits against slow and abusive clients (src/http/limits.ts).
const server = createHttpServer(koa.callback(), config.server, logger);
const draining = drainable(server);
// GraphQL subscriptions over WebSocket share this server's port (/graphql).
app.attach(server);

app.start();
// On PostgreSQL: hear other instances' events before taking requests, so no subscriber misses one.
await app.bus.ready?.();
await logDevToken(config, logger);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ url: `http://${config.host}:${port}`, database: store.dialect }, "twinspec listening");
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const grace = config.shutdownGraceMs;
  logger.info({ signal, graceMs: grace }, "shutting down: refusing new connections, finishing in-flight requests");
  // Whatever happens below, the process is gone shortly after the grace period.
  setTimeout(() => {
    logger.warn("shutdown did not complete in time; exiting");
    exit(1);
  }, grace + 1_000).unref();
  const drained = draining.drain(grace);
  // Subscriptions end now (graphql-ws complete + close 1001, SSE complete): they would hold their connections
  // open. Background work stops once the job in hand is done.
  await app.close();
  const clean = await drained;
  if (!clean) logger.warn({ graceMs: grace }, "requests still running at the end of the grace period were cut off");
  await store.close();
  logger.info("stopped");
  exit(clean ? 0 : 1);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

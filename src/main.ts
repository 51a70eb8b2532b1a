// Process entry: config from env, open the store, listen; SIGTERM/SIGINT → stop accepting, finish in-flight
// requests, close the database, exit 0.
import { createServer } from "node:http";
import type { LogEvent } from "kysely";
import { buildApp } from "./app.js";
import { signToken } from "./auth/tokens.js";
import { ALL_SCOPES } from "./auth/secret.js";
import { configFromEnv, type Config } from "./config.js";
import { createMetrics } from "./http/metrics.js";
import { createServerLogger } from "./logger.js";
import { openStore } from "./store/database.js";
import { isPostgresUrl } from "./store/postgres.js";

let config: Config;
try {
  config = configFromEnv();
} catch (error) {
  // A configuration mistake is the operator's to fix: say what, without a stack trace.
  console.error(`twinspec: ${(error as Error).message}`);
  process.exit(1);
}
// Tracing code is loaded only when an OTLP endpoint is set; without one, requests carry no tracing at all.
const telemetry = config.tracing ? await import("./telemetry/tracing.js") : undefined;
const { logger, flush } = createServerLogger(config.logLevel, telemetry?.logFields);
const tracing = telemetry?.startTracing({ ...config.tracing!, logger });
const exit = (code: number) => {
  flush();
  process.exit(code);
};
// Metrics first: the store reports every query to db_queries_total.
const metrics = createMetrics({ defaults: true });
const traceQuery = tracing?.query(isPostgresUrl(config.databaseUrl) ? "postgres" : "sqlite");
const onQuery = traceQuery ? (event: LogEvent) => (metrics.onQuery(), traceQuery(event)) : metrics.onQuery;
const store = await openStore(config.databaseUrl, { onQuery, poolMax: config.databasePoolMax, logger });
const { jwksUrl, issuer, audience } = config.auth;
const app = buildApp({ store, logger, authSecret: config.auth.secret, identity: { jwksUrl, issuer, audience }, metricsToken: config.auth.metricsToken, metrics, graphql: config.graphql, bodyLimit: config.bodyLimit, responseValidation: config.responseValidation, jobs: config.jobs, corsOrigins: config.corsOrigins, tracing });
const { koa } = app;
const server = createServer(koa.callback());
server.keepAliveTimeout = 5000;
// GraphQL subscriptions over WebSocket share this server's port (/graphql).
app.attach(server);

app.start();
// On PostgreSQL: hear other instances' events before taking requests, so no subscriber misses one.
await app.services.bus.ready?.();
if (config.auth.generated && config.auth.secret) {
  // No AUTH_SECRET outside production: a throwaway secret, and a ready admin token so `npm start` is usable at once.
  const token = await signToken(config.auth.secret, { sub: "dev-admin", scope: ALL_SCOPES, ttlSeconds: 12 * 3600, issuer, audience: audience?.[0] });
  logger.warn({ token }, "AUTH_SECRET is not set: using a random secret for this run; admin token (12 h) for `Authorization: Bearer …`");
}
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ url: `http://${config.host}:${port}`, database: store.dialect }, "twinspec listening");
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  // Ends subscriptions first (their WebSocket and SSE connections would hold server.close open) and background work.
  const closing = app.close();
  server.close(async () => {
    await closing;
    await store.close();
    // Exports the spans still batched; a collector that does not answer gets 3 s, not the whole shutdown budget.
    if (tracing) await Promise.race([tracing.shutdown(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    logger.info("stopped");
    exit(0);
  });
  server.closeIdleConnections();
  // Requests still running after 10 s are abandoned rather than holding the process forever.
  setTimeout(() => {
    logger.warn("in-flight requests did not finish in 10 s; exiting");
    exit(1);
  }, 10_000).unref();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

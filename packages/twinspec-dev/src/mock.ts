// "twinspec-dev/mock": `twinspec mock` (npm run mock), the mock server (src/mock/app.ts) as a process, on HOST:PORT like `npm start`, with no database.
// SIGTERM/SIGINT end subscriptions, let in-flight requests finish (10 s at most) and exit 0.
import { createHttpServer } from "twinspec/internals";
import { closeMetrics, listenMetrics } from "twinspec/internals";
import { createMetrics } from "twinspec/internals";
import { createServerLogger } from "twinspec/internals";
import type { AppDefinition } from "twinspec/internals";
import { buildMockApp } from "./mock/app.js";
import { configOrExit, logDevToken } from "twinspec/internals";

export { buildMockApp, type MockApp, type MockAppDeps } from "./mock/app.js";

/**
 * `npm run mock`: the mock server (`buildMockApp`) on HOST:PORT, configured from the environment as `serve` is
 * (what concerns no database, jobs, rate limits or tracing), until SIGTERM or SIGINT: then subscriptions end,
 * in-flight requests get 10 s to finish, and the process exits (0; 1 when they did not finish). Without AUTH_SECRET
 * (outside production) it logs a ready admin token (12 h) at start.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its domain is never called)
 */
export async function serveMock(definition: AppDefinition): Promise<void> {
  const config = configOrExit(definition.contract.rateLimits.budgets);
  const { logger, flush } = createServerLogger(config.logLevel);
  const metrics = createMetrics({ defaults: true });
  const app = buildMockApp({
    definition,
    logger,
    authSecret: config.auth.secret,
    identity: { jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience },
    metricsToken: config.auth.metricsToken,
    metricsEndpoint: config.metrics.endpoint,
    graphiql: config.graphiql,
    docs: config.docs,
    connections: config.connections,
    metrics,
    graphql: config.graphql,
    bodyLimit: config.bodyLimit,
    responseValidation: config.responseValidation,
    corsOrigins: config.corsOrigins,
  });
  // The same server as `npm start`'s: its limits (timeouts, header size; Node's refusals as problem+json) and responses.
  const server = createHttpServer(app.callback, config.server, logger);
  app.attach(server);
  await logDevToken(config, logger, definition.contract.scopes);
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
    logger.info(
      { url: `http://${config.host}:${port}`, mock: true },
      "twinspec mock server listening: answers come from openapi.yaml and schema.graphql",
    );
    // Written now, not with the next chunk: scripts wait for this line.
    flush();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const closing = Promise.all([app.close(), metricsServer && closeMetrics(metricsServer)]);
    server.close(() => {
      closing.then(
        () => {
          logger.info("stopped");
          flush();
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "closing the application failed");
          flush();
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn("in-flight requests did not finish in 10 s; exiting");
      flush();
      process.exit(1);
    }, 10_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

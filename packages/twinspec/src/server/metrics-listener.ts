// METRICS_PORT: /metrics on a listener of its own (same HOST), for a port kept off the public network; the main port
// then does not serve it. Only GET/HEAD /metrics is answered here, behind METRICS_TOKEN when one is set too.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { bearerToken } from "../auth/tokens.js";
import type { Metrics } from "../http/metrics.js";
import { PROBLEM_TYPE } from "../runtime/problem.js";
import { problemOf, PROBLEMS, type ProblemKey } from "../runtime/problems.js";

export interface MetricsListenerOptions {
  host: string;
  /** 0: any free port (the log says which) */
  port: number;
  token?: string;
  logger?: Logger;
}

export async function listenMetrics(
  metrics: Metrics,
  { host, port, token, logger }: MetricsListenerOptions,
): Promise<Server> {
  const server = createServer((req, res) => {
    const refuse = (key: ProblemKey, detail: string, headers: Record<string, string> = {}) =>
      void res
        .writeHead(PROBLEMS[key].status, { "content-type": PROBLEM_TYPE, ...headers })
        .end(JSON.stringify(problemOf(key, detail)));
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/metrics")
      return refuse("no_route", "This port serves /metrics only.");
    if (req.method !== "GET" && req.method !== "HEAD")
      return refuse("method_not_allowed", "/metrics answers GET.", { allow: "GET, HEAD" });
    if (token && bearerToken(req.headers.authorization) !== token) {
      return refuse("metrics_unauthorized", "/metrics needs `Authorization: Bearer <METRICS_TOKEN>`", {
        "www-authenticate": 'Bearer realm="twinspec-metrics"',
      });
    }
    metrics.registry.metrics().then(
      (body) =>
        res
          .writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" })
          .end(req.method === "HEAD" ? undefined : body),
      (error: unknown) => {
        logger?.error({ err: error }, "metrics could not be collected");
        refuse("internal", "Metrics could not be collected.");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  logger?.info({ metricsUrl: `http://${host}:${bound}/metrics` }, "metrics listening");
  return server;
}

/** Stops the metrics listener (its scrapes are short: open connections are cut). */
export function closeMetrics(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

// Prometheus metrics, one registry per app instance (several apps in one process never collide):
// http_requests_total and http_request_duration_seconds by method/route/status, db_queries_total, and /metrics.
import type { Middleware } from "koa";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  /** pass to openStore({ onQuery }) so every database query is counted */
  onQuery: () => void;
  /** counts and times one answered request */
  record(method: string, route: string, status: number, seconds: number): void;
  /** times every request; mount first */
  middleware(routeOf: (path: string) => string): Middleware;
  /** GET /metrics */
  endpoint: Middleware;
  /** a gauge whose value is read at each scrape */
  gauge(name: string, help: string, read: () => number): void;
}

export function createMetrics(options: { defaults?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaults) collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered", labelNames, registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request",
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const queries = new Counter({ name: "db_queries_total", help: "Database queries executed", registers: [registry] });
  // The series of one (method, route, status), looked up once: prom-client otherwise hashes the labels on every call.
  const series = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  const record = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${route} ${status}`;
    let found = series.get(key);
    if (!found) {
      const labels = [method, route, String(status)];
      series.set(key, (found = { count: requests.labels(...labels), time: duration.labels(...labels) }));
    }
    found.count.inc();
    found.time.observe(seconds);
  };
  return {
    registry,
    onQuery: () => queries.inc(),
    record,
    middleware: (routeOf) => async (ctx, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        record(ctx.method, routeOf(ctx.path), ctx.status, (performance.now() - started) / 1000);
      }
    },
    gauge: (name, help, read) => {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
    endpoint: async (ctx) => {
      ctx.set("Cache-Control", "no-store");
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    },
  };
}

/**
 * Maps a request path to its route template ("/customers/{customerId}"), so labels stay few whatever the ids;
 * paths no template knows are "unmatched". Static segments win over parameters.
 */
export function routeLabeler(templates: readonly string[]): (path: string) => string {
  const compiled = [...new Set(templates)]
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    }))
    .sort((a, b) => a.params - b.params);
  const cache = new Map<string, string>();
  return (path) => {
    let route = cache.get(path);
    if (route === undefined) {
      route = compiled.find((c) => c.re.test(path))?.template ?? "unmatched";
      // Only template-shaped keys are few; cache static ones, match parameterised paths each time.
      if (cache.size < 1000 && !compiled.some((c) => c.params > 0 && c.template === route)) cache.set(path, route);
    }
    return route;
  };
}

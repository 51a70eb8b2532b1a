// Prometheus metrics, one registry per app instance (several apps in one process never collide):
// http_requests_total and http_request_duration_seconds by method/route/status, db_queries_total, and /metrics.
import type { Middleware } from "koa";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** One application's Prometheus metrics (`createMetrics`): what /metrics serves. */
export interface Metrics {
  /** prom-client's registry the metrics are in (register an application's own metrics here) */
  registry: Registry;
  /** counts one database query in db_queries_total: pass to openStore({ countQuery }) (as `serve` does) */
  onQuery: () => void;
  /**
   * Counts and times one answered request (http_requests_total, http_request_duration_seconds).
   *
   * @param method - the request's method
   * @param route - the route template it matched ("/books/{bookId}"), never the raw path
   * @param status - the status it was answered with
   * @param seconds - how long the answer took, in seconds
   */
  record(method: string, route: string, status: number, seconds: number): void;
  /** the Koa middleware answering GET /metrics (Prometheus's text format) */
  endpoint: Middleware;
  /**
   * Adds a gauge whose value is read at each scrape.
   *
   * @param name - the metric's name
   * @param help - its HELP text
   * @param read - returns its current value
   */
  gauge(name: string, help: string, read: () => number): void;
  /**
   * Adds a counter with one label (e.g. refusals by limit); the function it returns counts one for a label value.
   *
   * @param name - the metric's name
   * @param help - its HELP text
   * @param label - the name of its one label
   */
  counter(name: string, help: string, label: string): (value: string) => void;
}

/**
 * How a server answers /metrics: "served" (behind the bearer token when one is set), "closed" (403, saying to set
 * METRICS_TOKEN or METRICS_PORT), "elsewhere" (404: a listener of its own serves it).
 */
export type MetricsEndpoint = "served" | "closed" | "elsewhere";

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The histogram's label child of one (method, route, status): bound once, the first time it is answered. */
type Series = { observe(seconds: number): void };

/**
 * A metrics registry of its own (several apps in one process never collide): http_requests_total,
 * http_request_duration_seconds and db_queries_total, served by `endpoint`. Make it before `openStore` and pass
 * `onQuery` there, then hand it to `buildApp` (AppDeps.metrics).
 *
 * @param options - `defaults`: also collect prom-client's process metrics (CPU, memory, event loop; default false)
 */
export function createMetrics(options: { defaults?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaults) collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  // The histogram counts every request already (its _count): the counter is read from it at each scrape, so a
  // request is observed once.
  new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered",
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await durations.get()).values)
        if (metricName === "http_request_duration_seconds_count") this.inc(labels, value);
    },
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  const queries = new Counter({ name: "db_queries_total", help: "Database queries executed", registers: [registry] });

  // method → route → status → its label child: a request finds it without building a key or a label object.
  const byMethod = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf = (method: string, route: string, status: number): Series => {
    let byRoute = byMethod.get(method);
    if (byRoute === undefined) byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      const labels = [method, route, String(status)];
      series = durations.labels(...labels);
      byStatus.set(status, series);
    }
    return series;
  };

  return {
    registry,
    onQuery: () => queries.inc(),
    record: (method, route, status, seconds) => {
      seriesOf(method, route, status).observe(seconds);
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
    counter: (name, help, label) => {
      const counter = new Counter({ name, help, labelNames: [label], registers: [registry] });
      return (value) => counter.inc({ [label]: value });
    },
    endpoint: async (ctx) => {
      ctx.set("Cache-Control", "no-store");
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    },
  };
}

/**
 * Maps a request path to its route template ("/books/{bookId}"), so labels stay few whatever the ids;
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

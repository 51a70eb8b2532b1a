// Prometheus metrics, one registry per app instance (several apps in one process never collide):
// http_requests_total and http_request_duration_seconds by method/route/status, db_queries_total, and /metrics.
import type { Middleware } from "koa";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

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

/** One (method, route, status): its requests, their summed seconds and how many fell in each bucket (not cumulative). */
interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** [i] = durations in (BUCKETS[i-1], BUCKETS[i]]; the last slot is above every bound (only in +Inf) */
  buckets: Float64Array;
}

/** A sample as prom-client's Registry prints it: name{labels,sharedLabels} value. */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
}

/**
 * A metric whose samples are read from our own counts at scrape time, registered in prom-client's Registry beside
 * its own metrics. prom-client's Counter and Histogram hash the label set and allocate on every inc()/observe(); this
 * keeps a request to three map lookups and a few additions.
 * The samples are the ones prom-client's Counter and Histogram would give, so /metrics reads the same
 * (test/http/metrics.test.ts compares).
 */
function scraped(
  registry: Registry,
  name: string,
  help: string,
  type: "counter" | "histogram",
  samples: () => Sample[],
  reset: () => void,
) {
  const metric = {
    name,
    help,
    type,
    aggregator: "sum",
    // Registry.metrics() reads this one: labels of a histogram bucket stay apart from the series' (sharedLabels)
    async getForPromString() {
      return { name: metric.name, help, type, aggregator: "sum", values: samples() };
    },
    // Registry.getMetricsAsJSON() reads this one, with the labels merged as prom-client's get() does
    async get() {
      const values = samples().map(({ sharedLabels, labels, ...rest }) => ({
        ...rest,
        labels: { ...labels, ...sharedLabels },
      }));
      return { name: metric.name, help, type, aggregator: "sum", values };
    },
    reset,
  };
  // registerMetric is typed for prom-client's own classes; the Registry only uses the members above.
  registry.registerMetric(metric as never);
}

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

  // method → route → status → series, so a request looks its series up without building a key; `series` keeps
  // first-seen order, which is the order prom-client printed them in.
  let byMethod = new Map<string, Map<string, Map<number, Series>>>();
  let series: Series[] = [];
  const record = (method: string, route: string, status: number, seconds: number) => {
    let byRoute = byMethod.get(method);
    if (byRoute === undefined) byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) byRoute.set(route, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (s === undefined) {
      s = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(BUCKETS.length + 1),
      };
      byStatus.set(status, s);
      series.push(s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && !(seconds <= BUCKETS[i])) i++;
    s.buckets[i]++;
  };
  const resetRequests = () => {
    byMethod = new Map();
    series = [];
  };
  scraped(
    registry,
    "http_requests_total",
    "HTTP requests answered",
    "counter",
    () => series.map((s) => ({ value: s.count, labels: s.labels })),
    resetRequests,
  );
  const duration = "http_request_duration_seconds";
  scraped(
    registry,
    duration,
    "Time to answer an HTTP request",
    "histogram",
    () =>
      series.flatMap((s): Sample[] => {
        let below = 0;
        return [
          ...BUCKETS.map((le, i) => ({
            metricName: `${duration}_bucket`,
            labels: { le },
            sharedLabels: s.labels,
            value: (below += s.buckets[i]),
          })),
          { metricName: `${duration}_bucket`, labels: { le: "+Inf" }, sharedLabels: s.labels, value: s.count },
          { metricName: `${duration}_sum`, labels: {}, sharedLabels: s.labels, value: s.sum },
          { metricName: `${duration}_count`, labels: {}, sharedLabels: s.labels, value: s.count },
        ];
      }),
    resetRequests,
  );
  let queries = 0;
  scraped(
    registry,
    "db_queries_total",
    "Database queries executed",
    "counter",
    () => [{ value: queries, labels: {} }],
    () => (queries = 0),
  );

  return {
    registry,
    onQuery: () => {
      queries++;
    },
    record,
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

// /metrics: Prometheus text with request counts and durations by method/route/status, per app instance.
import assert from "node:assert/strict";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { createMetrics, routeLabeler } from "../../src/http/metrics.js";
import { ada, call, startServer, type TestServer } from "../support/server.js";
import { metric } from "../support/metrics.js";

describe("metrics", () => {
  let s: TestServer;
  let other: TestServer;
  before(async () => {
    s = await startServer();
    other = await startServer();
  });
  after(async () => {
    await s.close();
    await other.close();
  });

  it("counts requests and times them by method, route template and status", async () => {
    const created = await call(`${s.url}/authors`, { method: "POST", json: ada });
    await call(`${s.url}/authors/${created.json.authorId}`);
    await call(`${s.url}/authors/nobody`);
    const res = await call(`${s.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain/);
    assert.equal(await metric(s, "http_requests_total", 'method="POST",route="/authors",status="201"'), 1);
    assert.equal(await metric(s, "http_requests_total", 'method="GET",route="/authors/{authorId}",status="200"'), 1);
    assert.equal(await metric(s, "http_requests_total", 'method="GET",route="/authors/{authorId}",status="404"'), 1);
    assert.equal(
      await metric(s, "http_request_duration_seconds_count", 'method="POST",route="/authors",status="201"'),
      1,
    );
    assert.equal(
      await metric(s, "http_request_duration_seconds_bucket", 'le="+Inf",method="POST",route="/authors",status="201"'),
      1,
    );
    assert.ok(
      (await metric(s, "http_request_duration_seconds_sum", 'method="POST",route="/authors",status="201"')) > 0,
    );
    assert.match(res.text, /^# TYPE db_queries_total counter$/m);
    assert.ok((await metric(s, "db_queries_total")) > 0);
  });

  it("keeps one registry per app: another server's counts are its own", async () => {
    await call(`${other.url}/healthz`);
    assert.equal(await metric(other, "http_requests_total", 'method="POST",route="/authors",status="201"'), 0);
    assert.equal(await metric(other, "http_requests_total", 'method="GET",route="/healthz",status="200"'), 1);
  });

  it("prints the samples prom-client's own Counter and Histogram would: buckets, +Inf, sum, count, labels", async () => {
    const requests: [string, string, number, number][] = [
      ["GET", "/authors/{authorId}", 200, 0.0004],
      ["POST", "/authors", 201, 0.003],
      ["GET", "/authors/{authorId}", 200, 0.07],
      ["GET", "/authors/{authorId}", 200, 0.1], // on a bound: counted in le="0.1"
      ["GET", "unmatched", 404, 7], // above every bound: only in +Inf
      ["GET", "/authors/{authorId}", 404, 0.001],
    ];
    const metrics = createMetrics();
    for (const r of requests) metrics.record(...r);
    for (let i = 0; i < 3; i++) metrics.onQuery();
    metrics.gauge("open_things", "Things open", () => 2);

    // What this module printed when it used prom-client's metrics directly, fed the same requests.
    const registry = new Registry();
    const labelNames = ["method", "route", "status"];
    const counter = new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered",
      labelNames,
      registers: [registry],
    });
    const histogram = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request",
      labelNames,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    new Counter({ name: "db_queries_total", help: "Database queries executed", registers: [registry] }).inc(3);
    new Gauge({ name: "open_things", help: "Things open", registers: [registry] }).set(2);
    for (const [method, route, status, seconds] of requests) {
      counter.labels(method, route, String(status)).inc();
      histogram.labels(method, route, String(status)).observe(seconds);
    }
    const text = await metrics.registry.metrics();
    assert.equal(text, await registry.metrics());

    const lines = text.split("\n");
    const series = 'method="GET",route="/authors/{authorId}",status="200"';
    for (const [le, n] of [
      ["0.001", 1],
      ["0.05", 1],
      ["0.1", 3],
      ["5", 3],
      ["+Inf", 3],
    ] as const) {
      assert.ok(lines.includes(`http_request_duration_seconds_bucket{le="${le}",${series}} ${n}`), `le=${le}`);
    }
    assert.ok(lines.includes(`http_request_duration_seconds_sum{${series}} ${0.0004 + 0.07 + 0.1}`));
    assert.ok(lines.includes(`http_request_duration_seconds_count{${series}} 3`));
    assert.ok(lines.includes(`http_requests_total{${series}} 3`));
    assert.ok(
      lines.includes('http_request_duration_seconds_bucket{le="5",method="GET",route="unmatched",status="404"} 0'),
    );
    assert.ok(
      lines.includes('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="unmatched",status="404"} 1'),
    );
    assert.ok(lines.includes("db_queries_total 3"));
    assert.ok(lines.includes("# TYPE http_request_duration_seconds histogram"));
  });

  it("labels unknown paths 'unmatched' and prefers static segments", () => {
    const route = routeLabeler([
      "/authors/{authorId}",
      "/authors/{authorId}/notes",
      "/graphql",
      "/graphql/assets/{name}",
    ]);
    assert.equal(route("/authors/aut_1"), "/authors/{authorId}");
    assert.equal(route("/authors/aut_1/notes"), "/authors/{authorId}/notes");
    assert.equal(route("/graphql"), "/graphql");
    assert.equal(route("/wp-admin/x"), "unmatched");
  });
});

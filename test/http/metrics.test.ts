// /metrics: Prometheus text with request counts and durations by method/route/status, per app instance.
import assert from "node:assert/strict";
import { routeLabeler } from "../../src/http/metrics.js";
import { ada, call, startServer, type TestServer } from "../support/server.js";
import { metric } from "../graphql/helpers.js";

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
    const created = await call(`${s.url}/customers`, { method: "POST", json: ada });
    await call(`${s.url}/customers/${created.json.customerId}`);
    await call(`${s.url}/customers/nobody`);
    const res = await call(`${s.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain/);
    assert.equal(await metric(s, "http_requests_total", 'method="POST",route="/customers",status="201"'), 1);
    assert.equal(await metric(s, "http_requests_total", 'method="GET",route="/customers/{customerId}",status="200"'), 1);
    assert.equal(await metric(s, "http_requests_total", 'method="GET",route="/customers/{customerId}",status="404"'), 1);
    assert.equal(await metric(s, "http_request_duration_seconds_count", 'method="POST",route="/customers",status="201"'), 1);
    assert.match(res.text, /^# TYPE db_queries_total counter$/m);
    assert.ok((await metric(s, "db_queries_total")) > 0);
  });

  it("keeps one registry per app: another server's counts are its own", async () => {
    await call(`${other.url}/healthz`);
    assert.equal(await metric(other, "http_requests_total", 'method="POST",route="/customers",status="201"'), 0);
    assert.equal(await metric(other, "http_requests_total", 'method="GET",route="/healthz",status="200"'), 1);
  });

  it("labels unknown paths 'unmatched' and prefers static segments", () => {
    const route = routeLabeler(["/customers/{customerId}", "/customers/{customerId}/orders", "/graphql", "/graphql/assets/{name}"]);
    assert.equal(route("/customers/cus_1"), "/customers/{customerId}");
    assert.equal(route("/customers/cus_1/orders"), "/customers/{customerId}/orders");
    assert.equal(route("/graphql"), "/graphql");
    assert.equal(route("/wp-admin/x"), "unmatched");
  });
});

// NODE_ENV=production, as `npm start` runs it: introspection, GraphiQL and an unguarded /metrics are off by default,
// each turned back by its knob; /docs stays on unless DOCS=off; METRICS_PORT moves /metrics to a listener of its own.
import assert from "node:assert/strict";
import { call } from "../support/server.js";
import { startProcess, type ServerProcess } from "../support/process.js";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const INTROSPECTION = { query: "{ __schema { queryType { name } } }" };
const PRODUCTION = { NODE_ENV: "production", DATABASE_URL: "sqlite::memory:" };

async function stop(p: ServerProcess | undefined) {
  if (!p) return;
  p.child.kill("SIGTERM");
  await p.exited;
}

describe("production defaults", function () {
  this.timeout(60_000);

  describe("with no knob set", () => {
    let p: ServerProcess;
    before(async () => (p = await startProcess(PRODUCTION)));
    after(() => stop(p));

    it("refuses introspection with a coded error; ordinary queries still run", async () => {
      const res = await call(`${p.url}/graphql`, { method: "POST", json: INTROSPECTION });
      assert.equal(res.json.data, undefined);
      assert.equal(res.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
      assert.match(res.json.errors[0].message, /introspection/i);
      assert.deepEqual((await call(`${p.url}/graphql`, { method: "POST", json: { query: "{ __typename }" } })).json, {
        data: { __typename: "Query" },
      });
    });

    it("gives a browser the GraphQL-over-HTTP answer, not GraphiQL's page, and serves none of its assets", async () => {
      const page = await call(`${p.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
      assert.doesNotMatch(page.headers.get("content-type") ?? "", /text\/html/);
      assert.doesNotMatch(page.text, /graphiql/i);
      assert.equal((await call(`${p.url}/graphql/assets/boot.js`)).status, 404);
    });

    it("closes /metrics with a problem saying to set METRICS_TOKEN or METRICS_PORT", async () => {
      const res = await call(`${p.url}/metrics`);
      assert.equal(res.status, 403);
      assert.match(res.headers.get("content-type")!, /^application\/problem\+json/);
      assert.match(res.json.detail, /METRICS_TOKEN/);
      assert.match(res.json.detail, /METRICS_PORT/);
    });

    it("keeps /docs and the OpenAPI document on: the REST contract is public", async () => {
      assert.equal((await call(`${p.url}/docs`)).status, 200);
      assert.equal((await call(`${p.url}/openapi.json`)).status, 200);
    });
  });

  describe("with each knob turning its feature back (or off)", () => {
    let p: ServerProcess;
    before(
      async () =>
        (p = await startProcess({
          ...PRODUCTION,
          GRAPHQL_INTROSPECTION: "on",
          GRAPHIQL: "on",
          METRICS_TOKEN: "scrape-me-0123456789",
          DOCS: "off",
        })),
    );
    after(() => stop(p));

    it("GRAPHQL_INTROSPECTION=on, GRAPHIQL=on, METRICS_TOKEN (bearer), DOCS=off", async () => {
      const res = await call(`${p.url}/graphql`, { method: "POST", json: INTROSPECTION });
      assert.deepEqual(res.json, { data: { __schema: { queryType: { name: "Query" } } } });
      const page = await call(`${p.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
      assert.match(page.text, /<div id="graphiql">/);
      assert.equal((await call(`${p.url}/metrics`)).status, 401);
      const metrics = await call(`${p.url}/metrics`, { headers: { authorization: "Bearer scrape-me-0123456789" } });
      assert.equal(metrics.status, 200);
      assert.match(metrics.text, /^# TYPE http_requests_total counter$/m);
      assert.equal((await call(`${p.url}/docs`)).status, 404);
      assert.equal((await call(`${p.url}/openapi.yaml`)).status, 404);
    });
  });

  describe("METRICS_PORT", () => {
    let p: ServerProcess;
    before(async () => (p = await startProcess({ ...PRODUCTION, METRICS_PORT: "0" })));
    after(() => stop(p));

    it("serves /metrics on its own port, and not on the main one", async () => {
      const metricsUrl = /"metricsUrl":"(http:\/\/[^"]+)"/.exec(p.output())![1];
      assert.notEqual(new URL(metricsUrl).port, new URL(p.url).port);
      await call(`${p.url}/healthz`);
      const res = await call(metricsUrl);
      assert.equal(res.status, 200);
      assert.match(res.text, /http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
      assert.equal((await call(`${p.url}/metrics`)).status, 404);
      assert.equal((await call(metricsUrl.replace("/metrics", "/healthz"))).status, 404);
    });
  });
});

// Tracing as operators turn it on: the standard OTEL_* variables of the process (main.ts), nothing else.
import assert from "node:assert/strict";
import { tracingFromEnv } from "../../src/telemetry/config.js";
import { startCollector } from "../support/otlp-collector.js";
import { runFixture, startProcess } from "../support/process.js";
import { call } from "../support/server.js";
import { until } from "../support/wait.js";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const requestLines = (output: string) =>
  output
    .split("\n")
    .filter((l) => l.includes('"msg":"request"'))
    .map((l) => JSON.parse(l));

describe("tracing from OTEL_* variables (main.ts)", function () {
  this.timeout(60_000);

  it("exports to OTEL_EXPORTER_OTLP_ENDPOINT with its headers and resource; spans still batched are sent on SIGTERM", async () => {
    const collector = await startCollector();
    try {
      const server = await startProcess({
        DATABASE_URL: "sqlite::memory:",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=secret-1",
        OTEL_SERVICE_NAME: "notes-api",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
        // Longer than the test: only the flush at shutdown can deliver them.
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      });
      const res = await call(`${server.url}/authors?limit=1`, {
        headers: { traceparent: `00-${TRACE}-b7ad6b7169203331-01` },
      });
      assert.equal(res.status, 200);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(collector.spans.length, 0, "still batched");
      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0, server.output());
      const span = collector.spans.find((s) => s.traceId === TRACE && s.name === "GET /authors");
      assert.ok(span, `exported at shutdown: ${collector.spans.map((s) => s.name)}`);
      assert.equal(span.parentSpanId, "b7ad6b7169203331");
      assert.equal(span.resource["service.name"], "notes-api");
      assert.equal(span.resource["deployment.environment.name"], "test");
      assert.equal(collector.requests[0]["x-collector-key"], "secret-1");
      const line = requestLines(server.output()).find((l) => l.url === "/authors?limit=1");
      assert.equal(line.trace_id, TRACE);
      assert.equal(line.span_id, span.spanId);
    } finally {
      await collector.close();
    }
  });

  it("without an endpoint (or with OTEL_SDK_DISABLED=true) nothing is traced and log lines carry no trace id", async () => {
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SDK_DISABLED: "true" }] as Record<
      string,
      string
    >[]) {
      const server = await startProcess({ DATABASE_URL: "sqlite::memory:", ...env });
      try {
        const res = await call(`${server.url}/authors?limit=1`, {
          headers: { traceparent: `00-${TRACE}-b7ad6b7169203331-01` },
        });
        assert.equal(res.status, 200);
        // Request lines are written in batches, within REQUEST_LINES_DELAY_MS (src/logger.ts).
        await until(
          () => requestLines(server.output()).some((l) => l.url === "/authors?limit=1"),
          "the request line on stdout",
          5_000,
        );
        const line = requestLines(server.output()).find((l) => l.url === "/authors?limit=1");
        assert.equal(line.trace_id, undefined);
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
  });

  it("refuses to start on a protocol it cannot speak, saying which it can", () => {
    const run = runFixture({
      AUTH_SECRET: "x".repeat(32),
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /OTEL_EXPORTER_OTLP_PROTOCOL must be "http\/protobuf" or "http\/json"/);
  });

  it("reads the switch from the standard variables", () => {
    const cases: [NodeJS.ProcessEnv, ReturnType<typeof tracingFromEnv>][] = [
      [{}, undefined],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }, { protocol: "http/protobuf" }],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }, { protocol: "http/protobuf" }],
      [
        { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
        { protocol: "http/json" },
      ],
      [
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        },
        { protocol: "http/json" },
      ],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }, undefined],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "TRUE" }, undefined],
    ];
    for (const [env, want] of cases) assert.deepEqual(tracingFromEnv(env), want, JSON.stringify(env));
    assert.throws(
      () => tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "zipkin" }),
      /OTEL_TRACES_EXPORTER/,
    );
  });
});

// OpenTelemetry against a real OTLP/HTTP collector on 127.0.0.1: what the exporter sends is decoded and checked —
// server spans per request (route template, status), GraphQL operation spans, database query spans, their
// parent/child links, W3C traceparent continued, and the trace id in the JSON log lines.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { createClient } from "graphql-ws";
import { pino } from "pino";
import WebSocket from "ws";
import { logFields, startTracing } from "../../src/telemetry/tracing.js";
import type { Tracing } from "../../src/telemetry/types.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { testDatabaseKind } from "../support/database.js";
import { startCollector, type CollectedSpan, type Collector } from "../support/otlp-collector.js";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";

const SERVER = 2; // SpanKind in OTLP: 1 internal, 2 server, 3 client
const CLIENT = 3;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const traceparent = (trace = TRACE, flags = "01") => `00-${trace}-${PARENT}-${flags}`;
const dbSystem = testDatabaseKind() === "postgres" ? "postgresql" : "sqlite";

describe("tracing (OTLP/HTTP JSON)", () => {
  let collector: Collector;
  let tracing: Tracing;
  let s: TestServer;
  const lines: Record<string, unknown>[] = [];

  before(async () => {
    collector = await startCollector();
    tracing = startTracing({ protocol: "http/json", url: `${collector.url}/v1/traces` });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    s = await startServer({ tracing, logger: pino({ level: "info", mixin: logFields }, sink) });
  });
  after(async () => {
    await s.close();
    await tracing.shutdown();
    await collector.close();
  });

  const flushed = async () => {
    await tracing.forceFlush();
    return collector.spans;
  };
  const childrenOf = (spans: CollectedSpan[], parent: CollectedSpan) =>
    spans.filter((x) => x.parentSpanId === parent.spanId && x.traceId === parent.traceId);

  it("a REST request: a server span named by the spec's path template, continuing traceparent, with a child span per query", async () => {
    const created = await call(`${s.url}/authors`, { method: "POST", json: ada });
    const trace = "11111111111111111111111111111111";
    const res = await call(`${s.url}/authors/${created.json.authorId}`, {
      headers: { traceparent: traceparent(trace) },
    });
    assert.equal(res.status, 200);
    const spans = await flushed();
    const server = spans.find((x) => x.traceId === trace && x.kind === SERVER)!;
    assert.ok(server, "a server span in the caller's trace");
    assert.equal(server.name, "GET /authors/{authorId}");
    assert.equal(server.parentSpanId, PARENT);
    assert.equal(server.attributes["http.route"], "/authors/{authorId}");
    assert.equal(server.attributes["http.request.method"], "GET");
    assert.equal(server.attributes["http.response.status_code"], 200);
    assert.equal(server.attributes["url.path"], `/authors/${created.json.authorId}`);
    assert.equal(server.resource["service.name"], "twinspec");
    const queries = childrenOf(spans, server);
    assert.ok(queries.length >= 1, "at least the author read");
    for (const q of queries) {
      assert.equal(q.kind, CLIENT);
      assert.equal(q.attributes["db.system"], dbSystem);
      assert.equal(q.attributes["db.operation.name"], "SELECT");
      assert.equal(typeof q.attributes["db.query.text"], "string");
      // The SDK starts every span at Date.now() (millisecond steps), so "within" holds to a millisecond.
      const ms = 1_000_000n;
      assert.ok(
        BigInt(q.startTimeUnixNano) + ms >= BigInt(server.startTimeUnixNano) &&
          BigInt(q.endTimeUnixNano) <= BigInt(server.endTimeUnixNano) + ms,
        "within its parent",
      );
      assert.ok(BigInt(q.endTimeUnixNano) >= BigInt(q.startTimeUnixNano));
    }
    assert.ok(queries.some((q) => q.attributes["db.collection.name"] === "authors"));
  });

  it("the trace id and the server span's id are in the request's log line", async () => {
    const trace = "22222222222222222222222222222222";
    const res = await call(`${s.url}/authors?limit=1`, { headers: { traceparent: traceparent(trace) } });
    const server = (await flushed()).find((x) => x.traceId === trace && x.kind === SERVER)!;
    const line = lines.find((l) => l.msg === "request" && l.requestId === res.headers.get("x-request-id"))!;
    assert.equal(line.trace_id, trace);
    assert.equal(line.span_id, server.spanId);
    assert.equal(line.trace_flags, "01");
  });

  it("without traceparent, or with a malformed one, a request starts a new trace", async () => {
    for (const headers of [
      {},
      { traceparent: "00-not-a-trace-01" },
      { traceparent: `00-${"0".repeat(32)}-${PARENT}-01` },
    ] as Record<string, string>[]) {
      const res = await call(`${s.url}/authors?limit=2`, { headers });
      const line = lines.find((l) => l.requestId === res.headers.get("x-request-id"))!;
      assert.match(String(line.trace_id), /^[0-9a-f]{32}$/);
      assert.notEqual(line.trace_id, "0".repeat(32));
      const server = (await flushed()).find((x) => x.traceId === line.trace_id && x.kind === SERVER)!;
      assert.equal(server.parentSpanId || undefined, undefined, `a root span for ${JSON.stringify(headers)}`);
    }
  });

  it("a caller that sampled its trace out (flags 00) gets no exported spans, but its trace id still reaches the logs", async () => {
    const trace = "33333333333333333333333333333333";
    const res = await call(`${s.url}/authors?limit=4`, { headers: { traceparent: traceparent(trace, "00") } });
    assert.equal(res.status, 200);
    const spans = await flushed();
    assert.equal(spans.filter((x) => x.traceId === trace).length, 0);
    const line = lines.find((l) => l.requestId === res.headers.get("x-request-id"))!;
    assert.equal(line.trace_id, trace);
    assert.equal(line.trace_flags, "00");
  });

  it("a path the spec does not have: the span is named by the method only and has no http.route; 4xx is not a span error", async () => {
    const trace = "44444444444444444444444444444444";
    const res = await call(`${s.url}/nowhere/at/all`, { headers: { traceparent: traceparent(trace) } });
    assert.equal(res.status, 404);
    const server = (await flushed()).find((x) => x.traceId === trace && x.kind === SERVER)!;
    assert.equal(server.name, "GET");
    assert.equal(server.attributes["http.route"], undefined);
    assert.equal(server.attributes["http.response.status_code"], 404);
    assert.notEqual(server.status?.code, 2);
  });

  it("GraphQL over HTTP: request span → operation span (type and name) → query spans", async () => {
    const trace = "55555555555555555555555555555555";
    const res = await call(`${s.url}/graphql`, {
      method: "POST",
      headers: { traceparent: traceparent(trace), accept: "application/graphql-response+json" },
      json: { query: "query FirstAuthors { authors(first: 5) { authorId notes { noteId } } }" },
    });
    assert.equal(res.status, 200, res.text);
    const spans = await flushed();
    const server = spans.find((x) => x.traceId === trace && x.kind === SERVER)!;
    assert.equal(server.name, "POST /graphql");
    assert.equal(server.attributes["http.route"], "/graphql");
    const [operation] = childrenOf(spans, server);
    assert.equal(operation.name, "query FirstAuthors");
    assert.equal(operation.attributes["graphql.operation.type"], "query");
    assert.equal(operation.attributes["graphql.operation.name"], "FirstAuthors");
    const queries = childrenOf(spans, operation);
    assert.ok(queries.length >= 2, `the authors and their notes (batched): ${queries.map((q) => q.name)}`);
    assert.ok(queries.every((q) => q.attributes["db.system"] === dbSystem));
    assert.ok(queries.some((q) => q.attributes["db.collection.name"] === "notes"));
  });

  it("a mutation's span says mutation, and its writes are spans of their own (INSERT)", async () => {
    const trace = "66666666666666666666666666666666";
    const res = await call(`${s.url}/graphql`, {
      method: "POST",
      headers: { traceparent: traceparent(trace) },
      json: { query: 'mutation { createAuthor(input: {name: "Grace Hopper"}) { authorId } }' },
    });
    assert.equal(res.status, 200, res.text);
    const spans = await flushed();
    const operation = spans.find((x) => x.traceId === trace && x.attributes["graphql.operation.type"] === "mutation")!;
    assert.equal(operation.name, "mutation");
    assert.equal(operation.attributes["graphql.operation.name"], undefined);
    assert.ok(childrenOf(spans, operation).some((q) => q.attributes["db.operation.name"] === "INSERT"));
  });

  it("a GraphQL subscription over WebSocket has its operation span, with the author check inside it", async () => {
    const author = await gql(s.url, 'mutation { createAuthor(input: {name: "Sub Scriber"}) { authorId } }');
    const authorId = author.json.data.createAuthor.authorId;
    const client = createClient({
      url: `${s.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    try {
      const events = client.iterate({
        query: `subscription Follow($a: ID!) { noteChanged(authorId: $a) { title } }`,
        variables: { a: authorId },
      });
      void events.next().catch(() => {}); // connects and subscribes
      let operation: CollectedSpan | undefined;
      for (
        const deadline = Date.now() + 5000;
        !operation && Date.now() < deadline;
        await new Promise((r) => setTimeout(r, 20))
      ) {
        operation = (await flushed()).find((x) => x.name === "subscription Follow");
      }
      assert.ok(operation, "the subscription's span");
      assert.equal(operation.attributes["graphql.operation.type"], "subscription");
      assert.equal(operation.attributes["graphql.operation.name"], "Follow");
      assert.ok(childrenOf(collector.spans, operation).some((q) => q.attributes["db.collection.name"] === "authors"));
      await events.return?.();
    } finally {
      await client.dispose();
    }
  });
});

describe("tracing with the collector down", () => {
  it("requests are served; the failed export is logged as a warning, outside any trace", async () => {
    const gone = await startCollector();
    await gone.close(); // nothing listens on its port any more
    const warnings: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) warnings.push(JSON.parse(line));
        done();
      },
    });
    // Read by the exporter and the batch processor as they are made: retry for 0.5 s, export every 0.1 s.
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_TIMEOUT: "500", OTEL_BSP_SCHEDULE_DELAY: "100" });
    const tracing = startTracing({
      protocol: "http/protobuf",
      url: `${gone.url}/v1/traces`,
      logger: pino({ level: "warn", mixin: logFields }, sink),
    });
    delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    const s = await startServer({ tracing });
    try {
      assert.equal((await call(`${s.url}/authors?limit=1`)).status, 200);
      for (const deadline = Date.now() + 5000; !warnings.length && Date.now() < deadline; )
        await new Promise((r) => setTimeout(r, 50));
      const warning = warnings.find((w) => String(w.msg).startsWith("opentelemetry:"));
      assert.ok(warning, JSON.stringify(warnings));
      assert.match(String(warning.msg), /ECONNREFUSED/);
      assert.equal(warning.trace_id, undefined);
    } finally {
      await s.close();
      await tracing.shutdown().catch(() => {});
    }
  });
});

describe("tracing (OTLP/HTTP protobuf, the standard default)", () => {
  it("sends application/x-protobuf to /v1/traces with the spans in it", async () => {
    const collector = await startCollector();
    const tracing = startTracing({ protocol: "http/protobuf", url: `${collector.url}/v1/traces` });
    const s = await startServer({ tracing });
    try {
      const trace = "77777777777777777777777777777777";
      await call(`${s.url}/authors?limit=1`, { headers: { traceparent: traceparent(trace) } });
      await tracing.forceFlush();
      assert.equal(collector.spans.length, 0, "nothing in JSON");
      const body = Buffer.concat(collector.protobuf.map((p) => p.body));
      assert.ok(collector.protobuf.every((p) => p.contentType === "application/x-protobuf"));
      // Protobuf carries strings as UTF-8 and ids as raw bytes.
      assert.ok(body.includes(Buffer.from("GET /authors")), "the span name");
      assert.ok(body.includes(Buffer.from(trace, "hex")), "the trace id");
      assert.ok(body.includes(Buffer.from(PARENT, "hex")), "the remote parent");
    } finally {
      await s.close();
      await tracing.shutdown();
      await collector.close();
    }
  });
});

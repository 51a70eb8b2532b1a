// Configuration from the environment: the knobs for faults and load (database probe, HTTP timeouts and limits,
// GraphQL sizes, shutdown grace) have documented defaults, take positive integers, and refuse what Node would.
import assert from "node:assert/strict";
import { rateLimits } from "../generated/contract.js";
import { configFromEnv } from "../packages/twinspec/src/config.js";

describe("config: timeouts and limits", () => {
  it("defaults", () => {
    const c = configFromEnv({});
    assert.deepEqual(c.server, {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxHeaderBytes: 16_384,
      maxUrlLength: 8_192,
    });
    assert.deepEqual(c.database, { connectTimeoutMs: 5_000, pingMs: 250, pingTimeoutMs: 500 });
    assert.equal(c.shutdownGraceMs, 10_000);
    assert.deepEqual([c.graphql.maxDocumentBytes, c.graphql.maxVariablesBytes], [65_536, 65_536]);
  });

  it("each is read from its variable", () => {
    const c = configFromEnv({
      HEADERS_TIMEOUT_MS: "2000",
      REQUEST_TIMEOUT_MS: "3000",
      KEEP_ALIVE_TIMEOUT_MS: "4000",
      MAX_HEADER_BYTES: "8192",
      MAX_URL_LENGTH: "2048",
      DATABASE_CONNECT_TIMEOUT_MS: "1500",
      DATABASE_PING_MS: "100",
      DATABASE_PING_TIMEOUT_MS: "300",
      SHUTDOWN_GRACE_MS: "20000",
      GRAPHQL_MAX_VARIABLES_BYTES: "1024",
    });
    assert.deepEqual(c.server, {
      headersTimeoutMs: 2000,
      requestTimeoutMs: 3000,
      keepAliveTimeoutMs: 4000,
      maxHeaderBytes: 8192,
      maxUrlLength: 2048,
    });
    assert.deepEqual(c.database, { connectTimeoutMs: 1500, pingMs: 100, pingTimeoutMs: 300 });
    assert.equal(c.shutdownGraceMs, 20_000);
    assert.equal(c.graphql.maxVariablesBytes, 1024);
  });

  it("refuses what is not a positive integer, and headers allowed longer than the whole request", () => {
    assert.throws(() => configFromEnv({ SHUTDOWN_GRACE_MS: "soon" }), /SHUTDOWN_GRACE_MS must be a positive integer/);
    assert.throws(() => configFromEnv({ MAX_HEADER_BYTES: "0" }), /MAX_HEADER_BYTES must be a positive integer/);
    assert.throws(
      () => configFromEnv({ HEADERS_TIMEOUT_MS: "40000" }),
      /HEADERS_TIMEOUT_MS \(40000\) must not exceed REQUEST_TIMEOUT_MS \(30000\)/,
    );
  });
});

describe("config: rate limits", () => {
  it("default: the specs' budgets as declared, synced every 50 ms on PostgreSQL", () => {
    assert.deepEqual(configFromEnv({}).rateLimits, { factor: 1, overrides: {}, syncMs: 50 });
  });

  it("RATE_LIMIT_FACTOR scales them all; RATE_LIMITS replaces budgets by name; RATE_LIMIT_SYNC_MS", () => {
    const c = configFromEnv({
      RATE_LIMIT_FACTOR: "1000",
      RATE_LIMITS: "default=1200/60, graphql=60000/3600",
      RATE_LIMIT_SYNC_MS: "200",
    });
    assert.deepEqual(c.rateLimits, {
      factor: 1000,
      overrides: { default: { limit: 1200, window: 60 }, graphql: { limit: 60000, window: 3600 } },
      syncMs: 200,
    });
    assert.equal(configFromEnv({ RATE_LIMIT_FACTOR: "0.5" }).rateLimits.factor, 0.5);
  });

  it("refuses a factor that is not a positive number, a malformed budget, and a budget the specs do not declare", () => {
    assert.throws(
      () => configFromEnv({ RATE_LIMIT_FACTOR: "0" }),
      /RATE_LIMIT_FACTOR must be a positive number, got "0"/,
    );
    assert.throws(() => configFromEnv({ RATE_LIMIT_FACTOR: "lots" }), /RATE_LIMIT_FACTOR must be a positive number/);
    assert.throws(
      () => configFromEnv({ RATE_LIMITS: "default=600" }),
      /RATE_LIMITS: "default=600" is not <budget>=<limit>\/<window seconds>/,
    );
    assert.throws(() => configFromEnv({ RATE_LIMITS: "default=0/60" }), /RATE_LIMITS: "default=0\/60"/);
    assert.throws(
      () => configFromEnv({ RATE_LIMITS: "tag:nope=5/60" }, rateLimits.budgets),
      /RATE_LIMITS names tag:nope, which the specs do not declare; they declare default, tag:jobs, op:checkoutCart, graphql, graphql:Mutation/,
    );
  });
});

describe("config: production defaults", () => {
  const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(32) };

  it("outside production: introspection, GraphiQL, /docs and /metrics on, as before", () => {
    const c = configFromEnv({});
    assert.deepEqual(
      [c.graphql.introspection, c.graphiql, c.docs, c.metrics],
      [true, true, true, { endpoint: "served" }],
    );
  });

  it("in production: introspection and GraphiQL off, /metrics closed without a token, /docs on", () => {
    const c = configFromEnv(production);
    assert.deepEqual(
      [c.graphql.introspection, c.graphiql, c.docs, c.metrics],
      [false, false, true, { endpoint: "closed" }],
    );
  });

  it("each knob turns its default back: GRAPHQL_INTROSPECTION (true|on|false|off), GRAPHIQL, DOCS, METRICS_TOKEN, METRICS_PORT", () => {
    const on = configFromEnv({ ...production, GRAPHQL_INTROSPECTION: "on", GRAPHIQL: "on", METRICS_TOKEN: "t" });
    assert.deepEqual([on.graphql.introspection, on.graphiql, on.metrics], [true, true, { endpoint: "served" }]);
    assert.equal(configFromEnv({ ...production, GRAPHQL_INTROSPECTION: "true" }).graphql.introspection, true);
    assert.equal(configFromEnv({ GRAPHQL_INTROSPECTION: "false" }).graphql.introspection, false);
    assert.equal(configFromEnv({ GRAPHQL_INTROSPECTION: "off" }).graphql.introspection, false);
    assert.deepEqual(
      [configFromEnv({ GRAPHIQL: "off" }).graphiql, configFromEnv({ DOCS: "off" }).docs],
      [false, false],
    );
    assert.deepEqual(configFromEnv({ ...production, METRICS_PORT: "9464" }).metrics, {
      port: 9464,
      endpoint: "elsewhere",
    });
    assert.deepEqual(configFromEnv({ METRICS_PORT: "0" }).metrics, { port: 0, endpoint: "elsewhere" });
  });

  it("refuses what it cannot read", () => {
    assert.throws(
      () => configFromEnv({ GRAPHQL_INTROSPECTION: "yes" }),
      /GRAPHQL_INTROSPECTION must be "true", "on", "false" or "off", got "yes"/,
    );
    assert.throws(() => configFromEnv({ GRAPHIQL: "true" }), /GRAPHIQL must be "on" or "off"/);
    assert.throws(() => configFromEnv({ METRICS_PORT: "99999" }), /METRICS_PORT must be a port number/);
    assert.throws(
      () => configFromEnv({ PORT: "9464", METRICS_PORT: "9464" }),
      /METRICS_PORT must differ from PORT \(9464\)/,
    );
  });
});

describe("config: connection limits", () => {
  it("default 100 each; read from WS_MAX_CONNECTIONS_PER_ADDRESS, WS_MAX_SUBSCRIPTIONS_PER_CONNECTION, SSE_MAX_STREAMS_PER_ADDRESS", () => {
    assert.deepEqual(configFromEnv({}).connections, {
      wsConnectionsPerAddress: 100,
      subscriptionsPerConnection: 100,
      sseStreamsPerAddress: 100,
    });
    const c = configFromEnv({
      WS_MAX_CONNECTIONS_PER_ADDRESS: "5",
      WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: "7",
      SSE_MAX_STREAMS_PER_ADDRESS: "9",
    });
    assert.deepEqual(c.connections, {
      wsConnectionsPerAddress: 5,
      subscriptionsPerConnection: 7,
      sseStreamsPerAddress: 9,
    });
    assert.throws(
      () => configFromEnv({ WS_MAX_CONNECTIONS_PER_ADDRESS: "0" }),
      /WS_MAX_CONNECTIONS_PER_ADDRESS must be a positive integer/,
    );
  });
});

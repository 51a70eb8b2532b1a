// Configuration from the environment: the knobs for faults and load (database probe, HTTP timeouts and limits,
// GraphQL sizes, shutdown grace) have documented defaults, take positive integers, and refuse what Node would.
import assert from "node:assert/strict";
import { configFromEnv } from "../src/config.js";

describe("config: timeouts and limits", () => {
  it("defaults", () => {
    const c = configFromEnv({});
    assert.deepEqual(c.server, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxHeaderBytes: 16_384, maxUrlLength: 8_192 });
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
    assert.deepEqual(c.server, { headersTimeoutMs: 2000, requestTimeoutMs: 3000, keepAliveTimeoutMs: 4000, maxHeaderBytes: 8192, maxUrlLength: 2048 });
    assert.deepEqual(c.database, { connectTimeoutMs: 1500, pingMs: 100, pingTimeoutMs: 300 });
    assert.equal(c.shutdownGraceMs, 20_000);
    assert.equal(c.graphql.maxVariablesBytes, 1024);
  });

  it("refuses what is not a positive integer, and headers allowed longer than the whole request", () => {
    assert.throws(() => configFromEnv({ SHUTDOWN_GRACE_MS: "soon" }), /SHUTDOWN_GRACE_MS must be a positive integer/);
    assert.throws(() => configFromEnv({ MAX_HEADER_BYTES: "0" }), /MAX_HEADER_BYTES must be a positive integer/);
    assert.throws(() => configFromEnv({ HEADERS_TIMEOUT_MS: "40000" }), /HEADERS_TIMEOUT_MS \(40000\) must not exceed REQUEST_TIMEOUT_MS \(30000\)/);
  });
});

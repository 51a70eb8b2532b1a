// The shared peer bench (../shared/bench, or BENCH_PEERS_DIR) as bench:peers and bench:profile use it: its own
// dependencies (installed there on first use, never part of this project's install or CI), its seeding of our server
// through the REST API, and its description of our server as a target (command, environment, token, queries).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const shared = path.resolve(process.env.BENCH_PEERS_DIR ?? path.join(project, "..", "shared", "bench"));
export const targetsFile = path.join(shared, "ours", "targets.json");

/** `--data postgres`: every server reads PostgreSQL (the shared bench's BENCH_DATA=postgres); SQLite otherwise. */
export const data = (() => {
  const i = process.argv.indexOf("--data");
  const kind = i > 0 ? process.argv[i + 1] : "sqlite";
  if (kind !== "sqlite" && kind !== "postgres") throw new Error(`--data is sqlite or postgres, not ${kind}`);
  return kind;
})();

/** The command's own arguments, without `--data <kind>`. */
export const argsWithoutData = (args) => args.filter((arg, i) => arg !== "--data" && args[i - 1] !== "--data");

/** The environment the shared bench's scripts and peers read the data layer from (and its REST peers our spec). */
export const dataEnv = { ...process.env, BENCH_DATA: data, BENCH_OPENAPI: path.join(project, "openapi.yaml") };

/**
 * The environment our compiled server runs with under load: the target's (its auth secret), a port, production,
 * and its data. RATE_LIMIT_FACTOR: the shared bench's 1000 admits 600,000 requests a minute, which a run of ~20 s
 * here exceeds (the last rounds would measure 429s); the limiter's work per request is the same whatever its budgets.
 */
export const serverEnv = (target, port, database) => ({
  ...process.env,
  ...target.env,
  RATE_LIMIT_FACTOR: "100000",
  PORT: String(port),
  HOST: "127.0.0.1",
  NODE_ENV: "production",
  ...database,
});

/** Runs a command to its end, showing its output; a failure ends this process with its status. */
export function run(cmd, args, { cwd = project, env = process.env } = {}) {
  console.log(`$ ${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, { cwd, env, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The peer bench is there and has its dependencies. */
export function preparePeerBench(command) {
  if (!fs.existsSync(path.join(shared, "bench.mjs"))) {
    console.error(
      `${command}: the peer bench is not at ${shared}; set BENCH_PEERS_DIR to its folder (the one with bench.mjs).`,
    );
    process.exit(1);
  }
  if (!fs.existsSync(path.join(shared, "node_modules"))) run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: shared });
}

/**
 * Seeds `db` through our REST API (the bench's 1,000 customers × 10 orders) and returns our target as the bench runs it.
 * With `--data postgres` the shared bench seeds its own database (bench_twinspec_seed) instead of the file, every time.
 */
export async function seededTarget(db, { reuse = false } = {}) {
  const file = data === "sqlite" ? ["--db", db] : [];
  if (data === "postgres" || !(reuse && fs.existsSync(db)))
    run(process.execPath, [path.join(shared, "ours", "seed.mjs"), "--project", project, ...file], { env: dataEnv });
  if (data === "postgres") await analyzeSeed();
  run(process.execPath, [path.join(shared, "ours", "targets.mjs"), "--project", project, ...file], { env: dataEnv });
  // Started as the peers are, `node` and the server's file, not through `npm start`, whose own Node process (about
  // 60 MB) the bench would count as ours; docs/operations.md deploys it the same way.
  const targets = JSON.parse(fs.readFileSync(targetsFile, "utf8"));
  for (const target of targets)
    target.cmd = target.cmd.replace(/\bnpm start$/, "node node_modules/twinspec/bin/twinspec-app.js start");
  fs.writeFileSync(targetsFile, JSON.stringify(targets, null, 1));
  return targets[0];
}

/** The shared bench's PostgreSQL helpers (ours/pgdb.mjs) and the server they administer (BENCH_PG_URL). */
async function pgAdmin() {
  const pgdb = await import(pathToFileURL(path.join(shared, "ours", "pgdb.mjs")).href);
  return { pgdb, admin: process.env.BENCH_PG_URL || pgdb.PG_ADMIN_DEFAULT };
}

/**
 * The peers' tables are analyzed once filled (the shared bench's lib/pg-data.mjs); the seeded database gets the same
 * (its copies inherit the statistics), or each run would plan its reads on empty statistics (a sequential scan and
 * sort for the list) that autovacuum had not yet had time to replace.
 */
async function analyzeSeed() {
  const { pgdb, admin } = await pgAdmin();
  const pg = createRequire(path.join(shared, "package.json"))("pg");
  const client = new pg.Client({ connectionString: pgdb.databaseUrl(admin, pgdb.SEED_DB_DEFAULT) });
  await client.connect();
  try {
    await client.query("analyze");
  } finally {
    await client.end();
  }
}

/**
 * A fresh copy of the seeded data for one of our servers (`name` tells copies apart), as the environment it starts
 * with: a copy of the SQLite file, or on PostgreSQL a database made from the seeded one as its template, reached
 * through a pool of the peers' size.
 */
export async function freshData(seed, name) {
  if (data === "postgres") {
    const { pgdb, admin } = await pgAdmin();
    const database = `bench_twinspec_${name}`;
    await pgdb.recreateDatabase(admin, database, pgdb.SEED_DB_DEFAULT);
    return { DATABASE_URL: pgdb.databaseUrl(admin, database), DATABASE_POOL_MAX: process.env.BENCH_PG_POOL ?? "10" };
  }
  const file = path.join(path.dirname(seed), `${name}.db`);
  for (const suffix of ["", "-wal", "-shm"]) {
    fs.rmSync(file + suffix, { force: true });
    if (fs.existsSync(seed + suffix)) fs.copyFileSync(seed + suffix, file + suffix);
  }
  return { DATABASE_URL: `sqlite:${file}` };
}

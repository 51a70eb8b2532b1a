// --db postgres for the benchmarks: the same requests against twinspec on SQLite, on PostgreSQL with one
// instance, and on PostgreSQL with two instances sharing the load, in one run. Every server is the real process
// (src/main.ts, NODE_ENV=production, info logs); PostgreSQL data lives in a fresh schema that is dropped after.
// --rounds N (default 3) interleaved rounds per setup, median kept.
// Two instances get the connections split evenly between them (client-side balancing: on this 2-core machine a
// proxy in front would take the CPU it is meant to measure).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { signToken } from "../packages/twinspec/src/auth/tokens.js";
import { load, peakRssMiB, startServer, type Load, type Started } from "./load.js";

export interface BenchRequest {
  name: string;
  path: string;
  method?: string;
  body?: string;
}

/** Seeds data through the given instance and returns the requests to load; `headers` carry the admin token. */
export type Prepare = (url: string, headers: Record<string, string>) => Promise<BenchRequest[]>;

const SECRET = randomBytes(24).toString("hex");
// The limiter runs (its cost is measured) but never refuses the bench's one client.
const ENV = {
  NODE_ENV: "production",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  AUTH_SECRET: SECRET,
  RATE_LIMIT_FACTOR: "1000",
};

export async function compareDatabases(prepare: Prepare, seconds: number, rounds = 3, connections = 50) {
  const token = await signToken(SECRET, { sub: "bench", scope: "admin", ttlSeconds: 3600 });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" };
  const dir = mkdtempSync(join(tmpdir(), "twinspec-bench-db-"));
  const schema = await freshSchema();
  const pgEnv = { ...ENV, DATABASE_URL: schema.url, DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? "10" };
  const started: Started[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startServer("src/main.ts", env);
    started.push(server);
    return server;
  };
  try {
    // All servers run throughout (idle when not measured); rounds interleave the setups, so load from anything
    // else on the machine hits each about equally, and the median of the rounds is kept.
    const sqlite = await start({ ...ENV, DATABASE_URL: `sqlite:${join(dir, "bench.db")}` });
    const pg1 = await start(pgEnv);
    const pg2 = await start(pgEnv);
    const pgRequests = await prepare(pg1.url, headers);
    const setups = [
      { setup: "SQLite, 1 instance", servers: [sqlite], requests: await prepare(sqlite.url, headers) },
      { setup: "PostgreSQL, 1 instance", servers: [pg1], requests: pgRequests },
      { setup: "PostgreSQL, 2 instances", servers: [pg1, pg2], requests: pgRequests },
    ];
    const samples = new Map<string, Load[]>();
    for (let round = 0; round < rounds; round++) {
      for (const { setup, servers, requests } of setups) {
        for (const request of requests) {
          const split = (s: number) =>
            servers.map((server, i) => ({
              url: `${server.url}${request.path}`,
              method: request.method,
              body: request.body,
              headers,
              connections: Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0),
              seconds: s,
            }));
          await Promise.all(split(round === 0 ? 2 : 1).map((o) => load(o))); // warm-up: JIT, caches, pools
          const total = combine(await Promise.all(split(seconds).map((o) => load(o))));
          if (total.errors + total.non2xx > 0)
            console.warn(`${setup} ${request.name}: ${total.errors} errors, ${total.non2xx} non-2xx`);
          const key = `${setup}\t${request.name}`;
          samples.set(key, [...(samples.get(key) ?? []), total]);
        }
      }
    }
    return [...samples].map(([key, runs]) => {
      const [setup, request] = key.split("\t");
      const servers = setups.find((s) => s.setup === setup)!.servers;
      return {
        setup,
        request,
        rps: median(runs.map((r) => r.rps)),
        rps_rounds: runs.map((r) => r.rps).join(" "),
        p50_ms: median(runs.map((r) => r.p50)),
        p99_ms: median(runs.map((r) => r.p99)),
        peak_rss_mib: servers.map((s) => peakRssMiB(s.child.pid!)).join(" + "),
      };
    });
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Requests/s add up across instances; latencies are the worse of the two (conservative). */
function combine(results: Load[]): Load {
  return results.reduce((a, b) => ({
    rps: a.rps + b.rps,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
  }));
}

async function freshSchema() {
  const base =
    process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`drop schema ${schema} cascade`) };
}

/** Two instances should serve more than one; says how much. */
export function scaling(rows: Record<string, unknown>[]) {
  for (const request of new Set(rows.map((r) => r.request as string))) {
    const one = rows.find((r) => r.request === request && r.setup === "PostgreSQL, 1 instance")?.rps as number;
    const two = rows.find((r) => r.request === request && r.setup === "PostgreSQL, 2 instances")?.rps as number;
    const lite = rows.find((r) => r.request === request && r.setup === "SQLite, 1 instance")?.rps as number;
    console.log(
      `${request}: PostgreSQL/SQLite = ${(one / lite).toFixed(2)}; 2 instances / 1 = ${(two / one).toFixed(2)} (${two > one ? "rises" : "does NOT rise"})`,
    );
  }
}

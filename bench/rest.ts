// npm run bench:rest — GET /customers/{customerId} through the whole stack (routing, validation, SQLite,
// ETag, conditional and cache headers, compression check, logging) against bare Koa + @koa/router returning a
// constant body, side by side in one run. Target: ours ≥ 0.8× bare. Options: --seconds N (default 10);
// --db postgres compares SQLite, PostgreSQL and two PostgreSQL instances instead.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { signToken } from "../packages/twinspec/src/auth/tokens.js";
import { arg, load, peakRssMiB, startServer } from "./load.js";

const seconds = Number(arg("seconds", "10"));

// --db postgres: the same GET on SQLite, on PostgreSQL, and on two PostgreSQL instances (bench/databases.ts).
if (arg("db", "sqlite") === "postgres") {
  const { compareDatabases, scaling } = await import("./databases.js");
  const rows = await compareDatabases(
    async (url, headers) => {
      const res = await fetch(`${url}/customers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }),
      });
      const created = (await res.json()) as { customerId: string };
      return [{ name: "GET /customers/{id}", path: `/customers/${created.customerId}` }];
    },
    seconds,
    Number(arg("rounds", "3")),
  );
  console.table(rows);
  scaling(rows);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "twinspec-bench-"));

// Auth is on, as in production: every request carries a bearer token (verified once, then cached).
const SECRET = randomBytes(24).toString("hex");
const token = await signToken(SECRET, { sub: "bench", scope: "admin", ttlSeconds: 3600 });
const auth = { authorization: `Bearer ${token}` };

async function measure(
  name: string,
  script: string,
  env: Record<string, string>,
  path: (url: string) => Promise<string>,
) {
  const server = await startServer(script, env);
  try {
    const url = await path(server.url);
    await load({ url, seconds: 2, headers: auth }); // warm-up: JIT, caches, connections
    const result = await load({ url, seconds, headers: auth });
    return { name, ...result, peakRssMiB: peakRssMiB(server.child.pid!) };
  } finally {
    await server.stop();
  }
}

const bare = await measure(
  "bare Koa + @koa/router (constant JSON)",
  "bench/servers/bare-koa.ts",
  {},
  async (url) => `${url}/customers/cus_bench`,
);
// RATE_LIMIT_FACTOR: the limiter runs (its cost is measured) but never refuses the bench's one client.
const env = {
  DATABASE_URL: `sqlite:${join(dir, "bench.db")}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  NODE_ENV: "production",
  AUTH_SECRET: SECRET,
  RATE_LIMIT_FACTOR: "1000",
};
const ours = await measure("twinspec GET /customers/{id} (SQLite, auth)", "src/main.ts", env, async (url) => {
  const res = await fetch(`${url}/customers`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }),
  });
  const created = (await res.json()) as { customerId: string };
  return `${url}/customers/${created.customerId}`;
});
rmSync(dir, { recursive: true, force: true });

console.table([bare, ours]);
const ratio = ours.rps / bare.rps;
console.log(`ratio ours/bare = ${ratio.toFixed(2)} (target ≥ 0.80): ${ratio >= 0.8 ? "met" : "NOT met"}`);
if (ours.errors + ours.non2xx > 0) console.log(`warning: ${ours.errors} errors, ${ours.non2xx} non-2xx answers`);

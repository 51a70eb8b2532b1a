// npm run bench:rest — GET /customers/{customerId} through the whole stack (routing, validation, SQLite,
// ETag, conditional and cache headers, compression check, logging) against bare Koa + @koa/router returning a
// constant body, side by side in one run. Target: ours ≥ 0.8× bare. Options: --seconds N (default 10).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, load, peakRssMiB, startServer } from "./load.js";

const seconds = Number(arg("seconds", "10"));
const dir = mkdtempSync(join(tmpdir(), "twinspec-bench-"));

async function measure(name: string, script: string, env: Record<string, string>, path: (url: string) => Promise<string>) {
  const server = await startServer(script, env);
  try {
    const url = await path(server.url);
    await load({ url, seconds: 2 }); // warm-up: JIT, caches, connections
    const result = await load({ url, seconds });
    return { name, ...result, peakRssMiB: peakRssMiB(server.child.pid!) };
  } finally {
    await server.stop();
  }
}

const bare = await measure("bare Koa + @koa/router (constant JSON)", "bench/servers/bare-koa.ts", {}, async (url) => `${url}/customers/cus_bench`);
const ours = await measure("twinspec GET /customers/{id} (SQLite)", "src/main.ts", { DATABASE_URL: `sqlite:${join(dir, "bench.db")}`, LOG_LEVEL: "info", NODE_ENV: "production" }, async (url) => {
  const res = await fetch(`${url}/customers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
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

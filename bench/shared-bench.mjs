// The shared peer bench (../shared/bench, or BENCH_PEERS_DIR) as bench:peers and bench:profile use it: its own
// dependencies (installed there on first use, never part of this project's install or CI), its seeding of our server
// through the REST API, and its description of our server as a target (command, environment, token, queries).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const shared = path.resolve(process.env.BENCH_PEERS_DIR ?? path.join(project, "..", "shared", "bench"));
export const targetsFile = path.join(shared, "ours", "targets.json");

/** Runs a command to its end, showing its output; a failure ends this process with its status. */
export function run(cmd, args, { cwd = project, env = process.env } = {}) {
  console.log(`$ ${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, { cwd, env, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The peer bench is there and has its dependencies. */
export function preparePeerBench(command) {
  if (!fs.existsSync(path.join(shared, "bench.mjs"))) {
    console.error(`${command}: the peer bench is not at ${shared}; set BENCH_PEERS_DIR to its folder (the one with bench.mjs).`);
    process.exit(1);
  }
  if (!fs.existsSync(path.join(shared, "node_modules"))) run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: shared });
}

/** Seeds `db` through our REST API (the bench's 1,000 customers × 10 orders) and returns our target as the bench runs it. */
export function seededTarget(db, { reuse = false } = {}) {
  if (!(reuse && fs.existsSync(db))) run(process.execPath, [path.join(shared, "ours", "seed.mjs"), "--project", project, "--db", db]);
  run(process.execPath, [path.join(shared, "ours", "targets.mjs"), "--project", project, "--db", db]);
  return JSON.parse(fs.readFileSync(targetsFile, "utf8"))[0];
}

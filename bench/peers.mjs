#!/usr/bin/env node
// npm run bench:peers — Twinspec against the servers people pick instead (Koa, Fastify, Yoga, Apollo, mercurius,
// Koa + graphql-jit), side by side in one interleaved run of the shared peer bench (../shared/bench, or
// BENCH_PEERS_DIR), every server reading the same 1,000 customers × 10 orders from SQLite (or PostgreSQL). Ours runs as it ships
// (`npm start`, production, auth on, rate limiter on with budgets × 1000), seeded through its own REST API.
// The table and the goals of the performance issue, judged on that one run, go to bench/results/peers/.
//   npm run bench:peers                      # ~8 min: 2 rounds × 10 s per scenario
//   npm run bench:peers -- --rounds 1 --duration 6   # a quick look; any option of the shared bench.mjs passes through
//   npm run bench:peers -- --data postgres   # every server on PostgreSQL (ours through DATABASE_URL, the peers' pg.Pool)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { argsWithoutData, dataEnv, preparePeerBench, project, run, seededTarget, shared, targetsFile } from "./shared-bench.mjs";

const out = path.join(project, "bench", "results", "peers");
const passThrough = argsWithoutData(process.argv.slice(2));

preparePeerBench("bench:peers");
// `npm start` serves dist/: build it from the current sources first.
run("npm", ["run", "-s", "build"]);
seededTarget(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "twinspec-peers-")), "seed.db"));
fs.mkdirSync(out, { recursive: true });
const before = new Set(fs.readdirSync(out));
const defaults = passThrough.some((a) => a === "--only" || a === "--skip") ? [] : ["--skip", "koa-graphql-http,koa-graphql-http-cached"];
run(process.execPath, [path.join(shared, "bench.mjs"), "--extra", targetsFile, "--out", out, ...defaults, ...passThrough], {
  cwd: shared,
  env: dataEnv,
});
const produced = fs.readdirSync(out).filter((f) => f.endsWith(".json") && !before.has(f)).sort();
if (produced.length === 0) {
  console.error("bench:peers: the bench wrote no results");
  process.exit(1);
}
const file = path.join(out, produced.at(-1));
const result = JSON.parse(fs.readFileSync(file, "utf8"));
const goals = judge(result.rows);
const md = file.replace(/\.json$/, ".md");
fs.appendFileSync(md, `\n${goals}\n`);
fs.writeFileSync(path.join(out, "latest.md"), fs.readFileSync(md, "utf8"));
for (const f of fs.readdirSync(out)) if (f.endsWith(".raw")) fs.rmSync(path.join(out, f));
console.log(`\n${goals}\nwritten: ${path.relative(project, md)} (and bench/results/peers/latest.md)`);

/**
 * The goals, as ratios of this one run: those the pipeline work had to keep (against Koa, mercurius without jit and
 * Koa + graphql-jit) and the performance issue's (against the fastest peers: mercurius with jit, bare Fastify).
 */
function judge(rows) {
  const ours = (q) => rows.find((r) => r.target === "twinspec" && r.q === q);
  const peer = (target, q) => rows.find((r) => r.target === target && r.q === q && r.okRuns > 0);
  const lines = ["## Goals (this run)", "", "| goal | measured | met |", "|---|---|---|"];
  const row = (goal, measured, met) => lines.push(`| ${goal} | ${measured} | ${met ? "yes" : "**no**"} |`);
  /** ours ÷ a peer, by requests per second, against `floor` */
  const atLeast = (q, target, floor) => {
    const them = peer(target, q);
    if (!ours(q) || !them) return;
    const ratio = ours(q).rps / them.rps;
    row(`${q.toUpperCase()} ≥ ${floor.toFixed(1)} × ${them.label}`, `${ratio.toFixed(2)} × (${fmt(ours(q).rps)} vs ${fmt(them.rps)} rps)`, ratio >= floor);
  };
  /** our p99 against `factor` × the best (lowest) p99 of `targets` */
  const p99Within = (q, targets, factor) => {
    const them = targets.map((t) => peer(t, q)).filter(Boolean);
    if (!ours(q) || them.length === 0) return;
    const best = them.sort((x, y) => x.p99 - y.p99)[0];
    const ratio = ours(q).p99 / Math.max(1, best.p99);
    row(`${q.toUpperCase()} p99 ≤ ${factor} × ${best.label}'s`, `${ours(q).p99} ms vs ${best.p99} ms (${ratio.toFixed(1)} ×)`, ratio <= factor);
  };
  lines.push("| **kept by the pipeline work** | | |");
  atLeast("rest", "koa-router", 0.8);
  for (const q of ["q1", "q2"]) for (const target of ["mercurius", "koa-graphql-jit"]) atLeast(q, target, 1);
  p99Within("rest", ["koa-router"], 2);
  for (const q of ["q1", "q2"]) p99Within(q, ["mercurius", "koa-graphql-jit"], 2);
  lines.push("| **against the fastest peers** | | |");
  atLeast("rest", "koa-router", 1);
  atLeast("rest", "fastify", 0.8);
  for (const q of ["q1", "q2"]) for (const target of ["mercurius-jit", "koa-graphql-jit"]) atLeast(q, target, 1);
  for (const q of ["rest", "q1", "q2"]) p99Within(q, rows.filter((r) => r.target !== "twinspec" && r.q === q).map((r) => r.target), 1.5);
  const heaviest = Math.max(...rows.filter((r) => r.target !== "twinspec").map((r) => r.rssPeak));
  const oursPeak = Math.max(...rows.filter((r) => r.target === "twinspec").map((r) => r.rssPeak));
  row("server RSS peak ≤ 1.5 × the heaviest peer's", `${mb(oursPeak)} MB vs ${mb(heaviest)} MB (${(oursPeak / heaviest).toFixed(2)} ×)`, oursPeak <= 1.5 * heaviest);
  return lines.join("\n");
}
function fmt(n) {
  return Math.round(n).toLocaleString("en-US");
}
function mb(bytes) {
  return Math.round(bytes / 2 ** 20);
}

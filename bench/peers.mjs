#!/usr/bin/env node
// npm run bench:peers — Twinspec against the servers people pick instead, side by side in one interleaved run of the
// shared peer bench (../shared/bench, or BENCH_PEERS_DIR): the peers that do the same work (koa-prod, fastify-prod,
// mercurius-prod, fastify-openapi-glue) and the bare ones (node:http, Koa, Fastify, mercurius with and without graphql-jit), every
// server reading the same 1,000 customers × 10 orders from SQLite (or PostgreSQL). Ours runs as it is deployed (`node` and
// twinspec-app start, production, auth on, rate limiter on with budgets × 1000), seeded through its own REST API.
// The table and the goals of the performance issue, judged on that one run, go to bench/results/peers/.
//   npm run bench:peers                      # ~6 min: 2 rounds × 10 s per scenario
//   npm run bench:peers -- --rounds 1 --duration 6   # a quick look; any option of the shared bench.mjs passes through
//   npm run bench:peers -- --data postgres   # every server on PostgreSQL (ours through DATABASE_URL, the peers' pg.Pool)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  argsWithoutData,
  dataEnv,
  preparePeerBench,
  project,
  run,
  seededTarget,
  shared,
  targetsFile,
} from "./shared-bench.mjs";

const out = path.join(project, "bench", "results", "peers");
const passThrough = argsWithoutData(process.argv.slice(2));

preparePeerBench("bench:peers");
// `npm start` serves dist/: build it from the current sources first.
run("npm", ["run", "-s", "build"]);
await seededTarget(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "twinspec-peers-")), "seed.db"));
fs.mkdirSync(out, { recursive: true });
const before = new Set(fs.readdirSync(out));
// By default the peers the goals name and the bare servers that place them; `--only` or `--skip` choose others.
const skipped = "koa-graphql-http,koa-graphql-http-cached,koa-graphql-jit,express-openapi,yoga,apollo";
const defaults = passThrough.some((a) => a === "--only" || a === "--skip") ? [] : ["--skip", skipped];
run(
  process.execPath,
  [path.join(shared, "bench.mjs"), "--extra", targetsFile, "--out", out, ...defaults, ...passThrough],
  {
    cwd: shared,
    env: dataEnv,
  },
);
const produced = fs
  .readdirSync(out)
  .filter((f) => f.endsWith(".json") && !before.has(f))
  .sort();
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
 * The goals, as ratios of this one run, against the peers that do the same work (koa-prod, fastify-prod,
 * mercurius-prod, fastify-openapi: auth, limits, logs, metrics, conditional reads) and, as the distance to the limit,
 * against the bare peers (node:http, mercurius with graphql-jit).
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
    row(
      `${q.toUpperCase()} ≥ ${floor.toFixed(2)} × ${them.label}`,
      `${ratio.toFixed(2)} × (${fmt(ours(q).rps)} vs ${fmt(them.rps)} rps)`,
      ratio >= floor,
    );
  };
  /** our p99 against the best (lowest) p99 of `targets` */
  const p99AtMostBest = (q, targets) => {
    const them = targets.map((t) => peer(t, q)).filter(Boolean);
    if (!ours(q) || them.length === 0) return;
    const best = them.sort((x, y) => x.p99 - y.p99)[0];
    row(`${q.toUpperCase()} p99 ≤ ${best.label}'s`, `${ours(q).p99} ms vs ${best.p99} ms`, ours(q).p99 <= best.p99);
  };
  /** one of our memory figures against `factor` × a peer's */
  const memory = (goal, oursBytes, theirsBytes, factor) => {
    if (!oursBytes || !theirsBytes) return;
    const ratio = oursBytes / theirsBytes;
    row(goal, `${mb(oursBytes)} MB vs ${mb(theirsBytes)} MB (${ratio.toFixed(2)} ×)`, ratio <= factor);
  };
  const sameWork = {
    rest: ["koa-prod", "fastify-prod", "fastify-openapi"],
    q1: ["mercurius-prod"],
    q2: ["mercurius-prod"],
  };
  lines.push("| **against the peers that do the same work** | | |");
  atLeast("rest", "koa-prod", 1.5);
  atLeast("rest", "fastify-prod", 1.5);
  atLeast("rest", "fastify-openapi", 2);
  atLeast("q1", "mercurius-prod", 1.5);
  atLeast("q2", "mercurius-prod", 1.5);
  for (const q of ["rest", "q1", "q2"]) p99AtMostBest(q, sameWork[q]);
  const idle = (target) =>
    Math.max(0, ...rows.filter((r) => r.target === target && r.okRuns > 0).map((r) => r.rssIdle));
  const peak = (target) =>
    Math.max(0, ...rows.filter((r) => r.target === target && r.okRuns > 0).map((r) => r.rssPeak));
  memory("idle RSS ≤ 1.5 × koa-prod's", idle("twinspec"), idle("koa-prod"), 1.5);
  const heaviest = Math.max(0, ...Object.values(sameWork).flat().map(peak));
  memory("peak RSS ≤ 1.5 × the heaviest same-work peer's", peak("twinspec"), heaviest, 1.5);
  lines.push("| **the distance to the limit** | | |");
  atLeast("rest", "node-http", 0.55);
  atLeast("q1", "mercurius-jit", 0.7);
  return lines.join("\n");
}
function fmt(n) {
  return Math.round(n).toLocaleString("en-US");
}
function mb(bytes) {
  return Math.round(bytes / 2 ** 20);
}

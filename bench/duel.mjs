#!/usr/bin/env node
// npm run bench:duel -- <distA> <distB> [rest|q1|q2] [seconds] [rounds] — two builds of the server compared under the
// same load and the same noise: both run at once, pinned to CPU 0, each loaded by its own autocannon (25 connections)
// from CPU 1; per round, the server CPU per request of each. On a shared machine, runs one after the other drift by
// ±15 % between runs of the same build; side by side both drift together, so a few µs show. The first server started
// comes out ≈ 1–2 µs cheaper whatever it is, so the rounds run twice: A started first, then B. Builds: e.g.
// `npm run build && npm run bench:snapshot -- .perf/after` (.perf/ is git-ignored; the snapshot holds the twinspec
// package's dist/ too, so a change in the package is compared, not only the application's). A build named `peer:<server>` is one of the peer
// bench's servers (../shared/bench/servers/<server>.mjs, e.g. peer:koa-router, peer:mercurius) on its SQLite data,
// asked the bench's own request: our CPU per request against a peer's, under the same noise, tells the goals' ratios
// more steadily than runs one after the other. `--apart` loads one server at a time (50 connections, as the peer
// bench; the other waits idle beside it), which is how the peer bench measures: the servers do not share the core's
// caches, so the ratio is not pulled toward 1, but rounds drift more. `<build>@<flag>,<flag>` runs a build with
// these node flags (npm start's are none). `--data postgres`: every server on PostgreSQL (the
// shared bench's BENCH_DATA=postgres; ours on a fresh copy of the seeded database, a pool of the peers' size).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  argsWithoutData,
  dataEnv,
  freshData,
  preparePeerBench,
  project,
  serverEnv,
  seededTarget,
  shared,
} from "./shared-bench.mjs";

const apart = process.argv.includes("--apart");
const [a, b, scenario = "q1", seconds = "5", rounds = "4"] = argsWithoutData(process.argv.slice(2)).filter(
  (arg) => arg !== "--apart",
);
if (!a || !b) throw new Error("bench:duel: name two builds (folders holding app/src/main.js), e.g. dist .perf/before");
if (!["rest", "q1", "q2"].includes(scenario))
  throw new Error(`bench:duel: the scenario is rest, q1 or q2, not ${scenario}`);
preparePeerBench("bench:duel");
const autocannon = createRequire(path.join(shared, "package.json"))("autocannon");
// The peers that do the same work (koa-prod, fastify-prod, mercurius-prod) verify the bench's own bearer token; the
// bare peers ignore it.
const { token, BENCH_SECRET } = await import(pathToFileURL(path.join(shared, "lib", "jwt.mjs")).href);
const PEER_HEADERS = { authorization: `Bearer ${token({ secret: BENCH_SECRET, ttl: 7 * 86400 })}` };
const work = path.join(os.tmpdir(), "twinspec-profile");
fs.mkdirSync(work, { recursive: true });
const seed = path.join(work, "seed.db");
const target = await seededTarget(seed, { reuse: true });
execFileSync("taskset", ["-pc", "1", String(process.pid)], { stdio: "ignore" });

const running = new Set();
process.on("exit", () => running.forEach((proc) => proc.kill("SIGTERM")));

/** Starts a build on CPU 0 over a fresh copy of the seeded data. */
// The peer bench's own queries (bench.mjs): the peers' schema names the id `id`.
const PEER_QUERIES = {
  q1: '{ customer(id:"42"){ id firstName lastName } }',
  q2: "{ customers(first:50){ id firstName orders { orderId status } } }",
};
const isPeer = (dist) => dist.startsWith("peer:");

async function start(dist, i) {
  const port = 4301 + i;
  if (isPeer(dist)) {
    const file = path.join(shared, "servers", `${dist.slice("peer:".length)}.mjs`);
    if (!fs.existsSync(file)) throw new Error(`bench:duel: no peer server ${file}`);
    const proc = spawn("taskset", ["-c", "0", process.execPath, file], {
      cwd: shared,
      env: { ...dataEnv, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    running.add(proc);
    return waitFor(
      { dist, proc, url: `http://127.0.0.1:${port}` },
      "/customers/42",
      scenario === "rest" ? 200 : undefined,
      PEER_HEADERS,
    );
  }
  const database = await freshData(seed, `duel_${i}`);
  // `<build>@<flag>,<flag>`: the build run with these node flags instead of npm start's.
  const [folder, flags] = dist.split("@");
  const nodeFlags = flags ? flags.split(",") : [];
  const proc = spawn(
    "taskset",
    ["-c", "0", process.execPath, ...nodeFlags, path.join(folder, "app", "src", "main.js")],
    {
      cwd: project,
      env: serverEnv(target, port, database),
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  running.add(proc);
  return waitFor({ dist, proc, url: `http://127.0.0.1:${port}` }, "/healthz", 200);
}

/** The server once `probe` answers (with `status`, or any answer when undefined). */
async function waitFor(server, probe, status, headers = {}) {
  for (let n = 0; ; n++) {
    if (n === 300) throw new Error(`bench:duel: ${server.dist} did not answer ${probe}`);
    const answered = await fetch(`${server.url}${probe}`, { headers }).then(
      (r) => status === undefined || r.status === status,
      () => false,
    );
    if (answered) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(server) {
  running.delete(server.proc);
  if (server.proc.exitCode === null) {
    server.proc.kill("SIGTERM");
    await new Promise((resolve) => server.proc.once("exit", resolve));
  }
}

const request = (s) => {
  const peer = isPeer(s.dist);
  const headers = peer ? PEER_HEADERS : target.headers;
  return scenario === "rest"
    ? { url: `${s.url}${peer ? "/customers/42" : target.rest}`, headers }
    : {
        url: `${s.url}${peer ? "/graphql" : target.graphql}`,
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ query: (peer ? PEER_QUERIES : target.queries)[scenario] }),
      };
};
const cpuTicks = (s) => {
  const fields = fs.readFileSync(`/proc/${s.proc.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
};

/** µs of server CPU per request of [a, b], per round, with `first` started first. */
async function duel(first) {
  const order = first === a ? [a, b] : [b, a];
  const servers = [];
  for (const [i, dist] of order.entries()) servers.push(await start(dist, i));
  const answers = [];
  for (const s of servers) {
    const r = await fetch(request(s).url, request(s));
    answers.push(await r.text());
    if (!r.ok) throw new Error(`bench:duel: ${s.dist} answered ${r.status}: ${answers.at(-1)}`);
  }
  if (answers[0] !== answers[1] && !servers.some((s) => isPeer(s.dist)))
    console.log(`the two builds answer differently:\n${answers.join("\n")}`);
  // Each server's load result with the CPU ticks it spent under it. --apart: one server loaded at a time (50
  // connections, as the peer bench), the other idle beside it; otherwise both at once (25 connections each).
  const loadOne = async (s, duration) => {
    const before = cpuTicks(s);
    const result = await autocannon({ ...request(s), connections: apart ? 50 : 25, duration });
    return Object.assign(result, { ticks: cpuTicks(s) - before });
  };
  const load = async (duration) => {
    if (!apart) return Promise.all(servers.map((s) => loadOne(s, duration)));
    const results = [];
    for (const s of servers) results.push(await loadOne(s, duration));
    return results;
  };
  await load(2); // warm-up
  const perRound = [];
  for (let round = 1; round <= Number(rounds); round++) {
    const results = await load(Number(seconds));
    const us = results.map((r) => (r.ticks * 10_000) / r.requests.total);
    if (apart)
      console.log(
        `${servers.map((s, i) => `${s.dist} ${Math.round(results[i].requests.average)} req/s p99 ${results[i].latency.p99} ms`).join(", ")}`,
      );
    const non2xx = results.reduce((n, r) => n + r.non2xx, 0);
    console.log(
      `${servers.map((s, i) => `${s.dist} ${us[i].toFixed(1)}`).join(", ")} µs of server CPU per request${non2xx ? ` (${non2xx} non-2xx)` : ""}`,
    );
    perRound.push(first === a ? us : [us[1], us[0]]);
  }
  for (const s of servers) await stop(s);
  return perRound;
}

const all = [...(await duel(a)), ...(await duel(b))];
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
const wins = all.filter(([x, y]) => y < x).length;
const saved = all.reduce((sum, [x, y]) => sum + x - y, 0) / all.length;
const loadavg = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `${scenario}: ${a} median ${median(all.map(([x]) => x)).toFixed(1)} µs, ${b} median ${median(all.map(([, y]) => y)).toFixed(1)} µs; ` +
    `${b} cheaper in ${wins} of ${all.length} rounds, by ${saved.toFixed(1)} µs on average; ${b} answers ` +
    `${(median(all.map(([x, y]) => x / y))).toFixed(2)} × the requests per CPU second of ${a} (median of the rounds' ratios) (load average ${loadavg})`,
);
process.exit(0);

#!/usr/bin/env node
// npm run bench:profile -- <rest|q1|q2> [seconds] [--prof] [--data postgres] — where one request's server time goes, before and after
// a change. The compiled server (dist/, built first) runs as it ships (production, auth on, rate limiter × 1000) on
// the peer bench's seeded SQLite data, pinned to CPU 0; autocannon (from ../shared/bench, or BENCH_PEERS_DIR) loads
// it from CPU 1 with the bench's request. Prints req/s, p99 and the server's CPU time per request (read from /proc:
// steadier than req/s on a shared machine), and with --prof the functions and packages with the most self time
// (node --cpu-prof; the profile stays in bench/results/profile/, git-ignored). DIST=<folder> profiles another build;
// PROFILE_NODE_FLAGS="--trace-gc-nvp" (or --inspect=…) runs it with more node flags (its output: the server log in
// $TMPDIR/twinspec-profile/server.log).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import {
  argsWithoutData,
  freshData,
  preparePeerBench,
  project,
  run,
  seededTarget,
  serverEnv,
  shared,
} from "./shared-bench.mjs";

const [scenario = "rest", seconds = "8"] = argsWithoutData(process.argv.slice(2)).filter((a) => !a.startsWith("--"));
const profile = process.argv.includes("--prof");
if (!["rest", "q1", "q2"].includes(scenario))
  throw new Error(`bench:profile: the scenario is rest, q1 or q2, not ${scenario}`);
preparePeerBench("bench:profile");
const dist = process.env.DIST ?? "dist";
if (!process.env.DIST) run("npm", ["run", "-s", "build"]);
const autocannon = createRequire(path.join(shared, "package.json"))("autocannon");

// The peers' data, seeded once through our REST API, copied fresh for each run; the request, token and settings
// are the bench's own for our target.
const work = path.join(os.tmpdir(), "twinspec-profile");
fs.mkdirSync(work, { recursive: true });
const seed = path.join(work, "seed.db");
const target = await seededTarget(seed, { reuse: true });
const database = await freshData(seed, "profile");
const profiles = path.join(project, "bench", "results", "profile");
fs.rmSync(profiles, { recursive: true, force: true });

const port = 4291;
const url = `http://127.0.0.1:${port}`;
const nodeArgs = [
  ...(process.env.PROFILE_NODE_FLAGS ? process.env.PROFILE_NODE_FLAGS.split(" ") : []),
  ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profiles}`] : []),
  path.join(dist, "app", "src", "main.js"),
];
const server = spawn("taskset", ["-c", "0", process.execPath, ...nodeArgs], {
  cwd: project,
  env: serverEnv(target, port, database),
  stdio: ["ignore", fs.openSync(path.join(work, "server.log"), "w"), "inherit"],
});
const stop = () => server.exitCode === null && server.kill("SIGTERM");
process.on("exit", stop);
for (let i = 0; ; i++) {
  if (i === 300)
    throw new Error(`bench:profile: the server did not answer /healthz (log: ${path.join(work, "server.log")})`);
  if (
    await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const request =
  scenario === "rest"
    ? { url: `${url}${target.rest}`, headers: target.headers }
    : {
        url: `${url}${target.graphql}`,
        method: "POST",
        headers: { ...target.headers, "content-type": "application/json" },
        body: JSON.stringify({ query: target.queries[scenario] }),
      };
const check = await fetch(request.url, request);
if (!check.ok) throw new Error(`bench:profile: ${scenario} answered ${check.status}: ${await check.text()}`);

execFileSync("taskset", ["-pc", "1", String(process.pid)], { stdio: "ignore" });
const cpuTicks = () => {
  const fields = fs.readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
};
await autocannon({ ...request, connections: 50, duration: 2 }); // warm-up
let peakKb = 0;
const sampler = setInterval(
  () =>
    (peakKb = Math.max(
      peakKb,
      Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]),
    )),
  200,
);
const before = cpuTicks();
const result = await autocannon({ ...request, connections: 50, duration: Number(seconds) });
const cpuUs = ((cpuTicks() - before) * 10_000) / result.requests.total;
clearInterval(sampler);
stop();
await new Promise((resolve) => server.once("exit", resolve));
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `${scenario}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ` +
    `${cpuUs.toFixed(1)} µs of server CPU per request, peak RSS ${Math.round(peakKb / 1024)} MB (load average ${load})`,
);
if (profile)
  summarize(
    path.join(
      profiles,
      fs.readdirSync(profiles).find((f) => f.endsWith(".cpuprofile")),
    ),
  );

/** Self time per function and per file or package, as shares of the busy (non-idle) time. */
function summarize(file) {
  const { nodes, samples, timeDeltas } = JSON.parse(fs.readFileSync(file, "utf8"));
  const timeOf = new Map();
  samples.forEach((id, i) => timeOf.set(id, (timeOf.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
  const byFunction = new Map();
  const byFile = new Map();
  let busy = 0;
  for (const { id, callFrame } of nodes) {
    const time = timeOf.get(id) ?? 0;
    if (callFrame.functionName === "(idle)") continue;
    busy += time;
    const where = callFrame.url.replace(/.*node_modules\//, "npm:").replace(/.*\/app\//, "") || "(native)";
    const name = `${callFrame.functionName || "(anonymous)"} ${where}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ""}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    const unit = where.startsWith("npm:")
      ? where
          .split("/")
          .slice(0, where.startsWith("npm:@") ? 2 : 1)
          .join("/")
      : where;
    byFile.set(unit, (byFile.get(unit) ?? 0) + time);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => `${((100 * t) / busy).toFixed(1).padStart(5)} %  ${k}`);
  console.log(`\nself time by function (of ${(busy / 1e6).toFixed(1)} s busy):\n${top(byFunction, 30).join("\n")}`);
  console.log(`\nby file or package:\n${top(byFile, 20).join("\n")}\n\nprofile: ${path.relative(project, file)}`);
}

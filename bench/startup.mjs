#!/usr/bin/env node
// npm run bench:startup — how long the commerce service takes to answer its first GET /healthz 200 (polled every
// 10 ms), from the start of the command: `npm start` as a user runs it (npm, twinspec-app start, the compiled
// dist/app), the compiled server alone (node dist/app/src/main.js), and the same sources through tsx (npm run dev),
// on a database whose migrations are applied (issue 39's case), then on a fresh one (migrations included). Its RSS
// once it has answered. 5 starts each; the median with the range. Run on a quiet machine: this is wall time.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "twinspec-startup-"));
const migrated = join(dir, "migrated.db");
const PORT = 39_000 + (process.pid % 1000);
const env = (db) => ({
  ...process.env,
  NODE_ENV: "production",
  AUTH_SECRET: "startup-bench-secret-0123456789abcdef",
  DATABASE_URL: `sqlite:${db}`,
  HOST: "127.0.0.1",
  PORT: String(PORT),
});
const variants = [
  ["`npm start` → /healthz 200, migrated database", "npm", ["start"], true],
  ["`node dist/app/src/main.js` → /healthz 200, migrated database", process.execPath, ["dist/app/src/main.js"], true],
  ["`node dist/app/src/main.js` → /healthz 200, fresh database", process.execPath, ["dist/app/src/main.js"], false],
  [
    "tsx: `node --import tsx src/main.ts` → /healthz 200, fresh database",
    process.execPath,
    ["--import", "tsx", "src/main.ts"],
    false,
  ],
];

const healthy = () =>
  fetch(`http://127.0.0.1:${PORT}/healthz`).then(
    (r) => r.status === 200,
    () => false,
  );

/** Starts the command in a process group of its own, waits for /healthz 200; its time, its RSS; stops the group. */
async function once(command, args, db) {
  const started = performance.now();
  const child = spawn(command, args, { env: env(db), stdio: ["ignore", "ignore", "inherit"], detached: true });
  const deadline = started + 60_000;
  while (!(await healthy())) {
    if (performance.now() > deadline) throw new Error(`${command} ${args.join(" ")}: no /healthz 200 within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ready = performance.now() - started;
  // The server is the node process listening on PORT (npm start: a child of npm's shell).
  const pid = execFileSync("ss", ["-Hltnp", `sport = :${PORT}`], { encoding: "utf8" }).match(/pid=(\d+)/)?.[1];
  const rss = pid ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024 : NaN;
  process.kill(-child.pid, "SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
  while (await healthy()) await new Promise((resolve) => setTimeout(resolve, 10));
  return { ready, rss };
}

// A database with every migration applied, copied for each start that wants one.
await once(process.execPath, ["dist/app/src/main.js"], migrated);
const rows = [];
for (const [name, command, args, useMigrated] of variants) {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const db = join(dir, `start-${rows.length}-${i}.db`);
    if (useMigrated) copyFileSync(migrated, db);
    runs.push(await once(command, args, db));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ready = runs.map((r) => r.ready);
  rows.push(
    `| ${name} | ${Math.round(median(ready))} (${Math.round(Math.min(...ready))}–${Math.round(Math.max(...ready))}) | ${Math.round(median(runs.map((r) => r.rss)))} |`,
  );
}
rmSync(dir, { recursive: true, force: true });
console.log(
  `load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n\n| start | to the first /healthz 200, ms: median (min–max) | RSS then, MB |\n|---|---|---|\n${rows.join("\n")}`,
);

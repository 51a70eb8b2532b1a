#!/usr/bin/env node
// npm run bench:startup — how long the server takes from process start to listening, and its RSS once it has
// answered one request: compiled (node dist/app/src/main.js, as in production and npm start) against the same
// sources through tsx (npm run dev). A fresh SQLite file each time (migrations included), 5 starts each.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "twinspec-startup-"));
const variants = [
  ["compiled: node dist/app/src/main.js", ["dist/app/src/main.js"]],
  ["tsx: node --import tsx src/main.ts", ["--import", "tsx", "src/main.ts"]],
];
const rows = [];
for (const [name, args] of variants) {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const db = join(dir, `start-${i}.db`);
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NODE_ENV: "production", AUTH_SECRET: "startup-bench-secret-0123456789abcdef", DATABASE_URL: `sqlite:${db}`, HOST: "127.0.0.1", PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const url = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${out}`)), 60_000);
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const m = /"url":"([^"]+)"/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const ready = performance.now() - started;
    await (await fetch(`${url}/healthz`)).text();
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
    child.kill("SIGTERM");
    await new Promise((resolve) => child.on("exit", resolve));
    runs.push({ ready, rss });
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  rows.push(`| ${name} | ${Math.round(median(runs.map((r) => r.ready)))} (${Math.round(Math.min(...runs.map((r) => r.ready)))}–${Math.round(Math.max(...runs.map((r) => r.ready)))}) | ${Math.round(median(runs.map((r) => r.rss)))} |`);
}
rmSync(dir, { recursive: true, force: true });
console.log(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n\n| server | start to listening, ms: median (min–max) | RSS after one request, MB |\n|---|---|---|\n${rows.join("\n")}`);

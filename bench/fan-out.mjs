#!/usr/bin/env node
// npm run bench:fan-out — what a GraphQL document whose fragments fan out costs the server: fragments F0 … F(n-1) on
// Query, each spreading the next one twice (2^n spreads if each were followed again), sent anonymously over POST, each
// time with a new trailing comment so that no cache answers it. For each n: the server's CPU per document (utime +
// stime of its process, /proc, over `ROUNDS` documents) and the slowest /healthz answered meanwhile (polled every
// 20 ms). The server is the commerce service as `npm start` runs it, in production mode, on a fresh SQLite file, with
// the default limits (GRAPHQL_MAX_TOKENS 1000: past n = 52 the parser refuses) and again with the token limit lifted
// (GRAPHQL_MAX_TOKENS=1000000, GRAPHQL_MAX_DEPTH=100000) so that validation meets the whole document.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROUNDS = 20;
const SIZES = [10, 26, 30, 50, 200, 1000, 5000];
const TICK_MS = 1000 / 100; // USER_HZ

const fanOut = (n) =>
  `{ ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { __typename${i + 1 < n ? ` ...F${i + 1} ...F${i + 1}` : ""} }`).join(" ")}`;
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

async function start(env, dir) {
  const child = spawn(process.execPath, ["--conditions=twinspec-source", "--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      AUTH_SECRET: "fan-out-bench-secret-0123456789abcdef",
      DATABASE_URL: `sqlite:${join(dir, "bench.db")}`,
      HOST: "127.0.0.1",
      PORT: "0",
      RATE_LIMIT_FACTOR: "100000",
      ...env,
    },
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
  return { child, url };
}

async function measure(url, pid, n) {
  let slowest = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).text();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const statuses = new Map();
  const before = cpuMs(pid);
  for (let i = 0; i < ROUNDS; i++) {
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query: `${fanOut(n)} # ${i}` }),
    });
    const body = await res.json();
    const key = `${res.status} ${body.errors?.[0]?.extensions?.code ?? "data"}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const perDocument = (cpuMs(pid) - before) / ROUNDS;
  polling = false;
  await poll;
  return { n, bytes: fanOut(n).length, perDocument, slowest, answers: [...statuses.keys()].join(", ") };
}

const dir = mkdtempSync(join(tmpdir(), "twinspec-fan-out-"));
try {
  for (const [name, env] of [
    ["default limits", {}],
    ["token and depth limits lifted", { GRAPHQL_MAX_TOKENS: "1000000", GRAPHQL_MAX_DEPTH: "100000" }],
  ]) {
    const { child, url } = await start(env, dir);
    try {
      console.log(
        `\n${name}\n| fragments | document bytes | server CPU per document (ms) | slowest /healthz meanwhile (ms) | answers |\n|---:|---:|---:|---:|---|`,
      );
      for (const n of SIZES) {
        const r = await measure(url, child.pid, n);
        console.log(`| ${r.n} | ${r.bytes} | ${r.perDocument.toFixed(1)} | ${r.slowest.toFixed(0)} | ${r.answers} |`);
      }
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.on("exit", r));
    }
    rmSync(join(dir, "bench.db"), { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

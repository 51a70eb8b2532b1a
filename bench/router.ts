// npm run bench:router — requests/s on GET /target/{id}?limit=5 (path + query validation, JSON answer), autocannon
// on 127.0.0.1, one server loaded at a time, rounds interleaved and the median kept:
//   generated wiring with the route among 10 operations, and among 1,000 (target: ≥ 0.9× — routing must not grow
//   with the spec); a hand-written @koa/router route doing the same validation (target: generated ≥ 0.8× it);
//   for context, the hand-written route behind 999 other @koa/router routes (its linear matching).
// Options: --seconds N per measurement (default 5), --rounds N (default 3), --connections N (default 20).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { arg, load, startServer, type Started } from "./load.js";
import { writeSpec } from "./synthetic.js";

const seconds = Number(arg("seconds", "5"));
const rounds = Number(arg("rounds", "3"));
const connections = Number(arg("connections", "20"));
const dir = join("bench", ".tmp", `router-${process.pid}`);

function generate(operations: number): string {
  const out = join(dir, `s${operations}`);
  const run = spawnSync(
    process.execPath,
    [
      "packages/twinspec-dev/bin/twinspec.js",
      "rest",
      writeSpec(dir, operations),
      "--out",
      out,
      "--runtime",
      "../../../../packages/twinspec/src/runtime/index.js",
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return out;
}

const servers: { name: string; env: Record<string, string>; server?: Started; rps: number[] }[] = [
  { name: "generated, 10 operations", env: { BENCH_MODE: "generated", BENCH_DIR: generate(10) }, rps: [] },
  { name: "generated, 1000 operations", env: { BENCH_MODE: "generated", BENCH_DIR: generate(1000) }, rps: [] },
  { name: "hand-written @koa/router route", env: { BENCH_MODE: "hand" }, rps: [] },
  { name: "hand-written, behind 999 @koa/router routes", env: { BENCH_MODE: "hand", BENCH_ROUTES: "1000" }, rps: [] },
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  for (const s of servers) s.server = await startServer("bench/rest-server.ts", { ...s.env, NODE_ENV: "production" });
  for (const s of servers) {
    const check = await fetch(`${s.server!.url}/target/42?limit=5`);
    if (check.status !== 200) throw new Error(`${s.name}: ${check.status} ${await check.text()}`);
    await load({ url: `${s.server!.url}/target/42?limit=5`, seconds: 1, connections }); // warm-up
  }
  for (let round = 0; round < rounds; round++) {
    for (const s of servers) {
      const result = await load({ url: `${s.server!.url}/target/42?limit=5`, seconds, connections });
      if (result.errors || result.non2xx)
        throw new Error(`${s.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
      s.rps.push(result.rps);
    }
  }
  const [g10, g1000, hand, hand1000] = servers.map((s) => median(s.rps));
  for (const s of servers)
    console.log(`${s.name.padEnd(46)} ${String(median(s.rps)).padStart(6)} req/s  (rounds: ${s.rps.join(", ")})`);
  const ratio = (a: number, b: number) => Math.round((100 * a) / b) / 100;
  console.log(
    JSON.stringify({
      seconds,
      rounds,
      connections,
      generated10: g10,
      generated1000: g1000,
      hand,
      handBehind999: hand1000,
      ratio1000to10: ratio(g1000, g10),
      ratioGeneratedToHand: ratio(g10, hand),
    }),
  );
  console.log(`1000 vs 10 operations: ${ratio(g1000, g10)}× (target ≥ 0.9: ${g1000 >= 0.9 * g10 ? "met" : "MISSED"})`);
  console.log(
    `generated vs hand-written: ${ratio(g10, hand)}× (target ≥ 0.8: ${g10 >= 0.8 * hand ? "met" : "MISSED"})`,
  );
} finally {
  await Promise.all(servers.map(async (s) => s.server?.stop()));
  rmSync(dir, { recursive: true, force: true });
}

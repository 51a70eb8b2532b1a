// npm run bench:dev-loop — `npm run dev` from save to served (target ≤ 2 s each): a copy of the application (specs,
// src/, client/, generated/) in bench/.tmp, its dev loop started (`twinspec dev`), then `--saves N` (default 5) saves
// of openapi.yaml in a row, each adding an operation; after each save it polls the new operation until it answers
// (501 from its fresh stub) and prints the time from the save. On Linux it also prints the CPU the loop's processes
// (`twinspec dev`, its servers and standbys) used per save, from /proc: the figure a loaded machine disturbs least.
// The copy sits inside the repository so that its imports resolve from the repository's node_modules; it is removed
// at the end.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";

const saves = Number(process.argv[process.argv.indexOf("--saves") + 1] || 5) || 5;
const root = resolve(import.meta.dirname, "..");
const dir = join(root, "bench", ".tmp", `dev-loop-${process.pid}`);
const bin = join(root, "packages/twinspec-dev/bin/twinspec.js");

/** Seconds of CPU (user + system) of process `pid`, its reaped children and, recursively, its live ones; undefined off Linux. */
function treeCpu(pid) {
  try {
    // /proc/<pid>/stat: after "(comm)", field 14-17 are utime, stime, cutime, cstime in clock ticks (100 per second).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /s, "")
      .split(" ");
    const own = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.reduce((sum, child) => sum + (treeCpu(child) ?? 0), own);
  } catch {
    return undefined;
  }
}

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

/** The status `path` answers, or undefined while nothing listens. */
async function status(port, path) {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return undefined;
  }
}

/** Polls until `path` answers `want`; the milliseconds it took, or a failure after `limitMs`. */
async function until(port, path, want, limitMs) {
  const started = performance.now();
  for (;;) {
    if ((await status(port, path)) === want) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`${path} did not answer ${want} within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** openapi.yaml's text for one more public operation, GET /dev-loop/probe<n>, under the jobs tag. */
const probeOperation = (n) => `
  /dev-loop/probe${n}:
    get:
      operationId: devLoopProbe${n}
      tags: [jobs]
      summary: Probe ${n} of the dev-loop bench
      x-unpaired: a probe the dev-loop bench adds
      security: []
      responses:
        "200":
          description: Never answered (the stub answers 501)
          content:
            application/json:
              schema: { type: object }
        "406": { $ref: "#/components/responses/NotAcceptable" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "500": { $ref: "#/components/responses/InternalError" }
        "503": { $ref: "#/components/responses/ServiceUnavailable" }
        "408": { $ref: "#/components/responses/RequestTimeout" }
        "414": { $ref: "#/components/responses/UriTooLong" }
        "431": { $ref: "#/components/responses/HeadersTooLarge" }
`;

mkdirSync(dir, { recursive: true });
for (const f of [
  "openapi.yaml",
  "schema.graphql",
  "codegen.yml",
  "package.json",
  "tsconfig.json",
  "src",
  "generated",
  "client",
]) {
  cpSync(join(root, f), join(dir, f), {
    recursive: true,
    filter: (p) => !p.includes("node_modules") && !p.includes(`client${"/"}dist`),
  });
}
const port = await freePort();
const child = spawn(process.execPath, [bin, "dev"], {
  cwd: dir,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${join(dir, "dev.db")}`,
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
try {
  const first = await until(port, "/customers", 401, 600_000);
  console.log(`first start: the server answers ${Math.round(first)} ms after \`twinspec dev\` started`);
  const times = [];
  const cpuBefore = treeCpu(child.pid);
  const spec = join(dir, "openapi.yaml");
  for (let n = 1; n <= saves; n++) {
    const text = readFileSync(spec, "utf8");
    const saved = performance.now();
    writeFileSync(spec, text.replace(/^paths:\n/m, `paths:${probeOperation(n)}`));
    await until(port, `/dev-loop/probe${n}`, 501, 60_000);
    times.push(performance.now() - saved);
    console.log(`save ${n}: GET /dev-loop/probe${n} answered 501 ${Math.round(times.at(-1))} ms after the save`);
  }
  const cpuAfter = treeCpu(child.pid);
  const cpuPerSave = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / saves;
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    JSON.stringify({
      saves,
      medianMs: Math.round(median),
      maxMs: Math.round(sorted.at(-1)),
      timesMs: times.map(Math.round),
      cpuPerSaveS: cpuPerSave === undefined ? undefined : Number(cpuPerSave.toFixed(2)),
    }),
  );
  if (cpuPerSave !== undefined)
    console.log(
      `CPU of the loop's processes: ${cpuPerSave.toFixed(2)} s per save (load average ${loadavg()[0].toFixed(1)})`,
    );
  console.log(
    `save → served: median ${Math.round(median)} ms, max ${Math.round(sorted.at(-1))} ms (target ≤ 2000: ${sorted.at(-1) <= 2000 ? "met" : "MISSED"})`,
  );
} finally {
  child.kill("SIGINT");
  await new Promise((r) => child.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
}

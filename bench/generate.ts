// npm run bench:generate — `twinspec generate` against openapi-typescript + graphql-codegen alone on the same specs,
// for the commerce service and the runtime package's fixture (generate-tools.ts; target: cold generate ≤ 1.0 × the
// tools' CPU), then generation for a synthetic 1,000-operation document (target ≤ 5 s, through the `twinspec rest`
// command, process start included) and the start of a server mounting its output (target ≤ 1 s from process start to
// listening: module loading, validators and mounting included). Options: --runs N (default 5) for the comparison,
// --operations N for the synthetic document, --only tools|synthetic.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { compareWithTools, comparisonLines } from "./generate-tools.js";
import { arg } from "./load.js";
import { writeSpec } from "./synthetic.js";

const operations = Number(arg("operations", "1000"));
// Inside the repository, so the generated code resolves koa, ajv… from its node_modules.
const dir = join("bench", ".tmp", `generate-${process.pid}`);

/** Starts bench/rest-server.ts on the generated code; its own clock from process start to listening. */
async function startMs(out: string): Promise<number> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/rest-server.ts", "generated", out], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) resolve(text.split("\n")[0]);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  return JSON.parse(line).startMs;
}

const only = arg("only", "");

/** The comparison with the tools, one project after the other. */
function tools() {
  const runs = Number(arg("runs", "5"));
  for (const project of ["commerce", "fixture"] as const) {
    const c = compareWithTools(project, runs, dir);
    console.log(JSON.stringify(c));
    for (const line of comparisonLines(c)) console.log(line);
  }
}

/** `twinspec rest` on the synthetic document, then a server on its output. */
async function synthetic() {
  const spec = writeSpec(dir, operations);
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      "packages/twinspec-dev/bin/twinspec.js",
      "rest",
      spec,
      "--out",
      join(dir, "out"),
      "--runtime",
      "../../../../packages/twinspec/src/runtime/index.js",
    ],
    { encoding: "utf8" },
  );
  const generateMs = Math.round(performance.now() - started);
  if (run.status !== 0) throw new Error(run.stderr);
  // The first start also fills tsx's transform cache (as the first start after a generation does); then warm ones.
  const cold = await startMs(join(dir, "out"));
  const warm = Math.min(await startMs(join(dir, "out")), await startMs(join(dir, "out")));
  console.log(JSON.stringify({ operations, generateMs, serverStartColdMs: cold, serverStartWarmMs: warm }));
  console.log(
    `generation of ${operations} operations: ${generateMs} ms (target ≤ 5000: ${generateMs <= 5000 ? "met" : "MISSED"})`,
  );
  console.log(`server start: ${cold} ms cold, ${warm} ms warm (target ≤ 1000: ${warm <= 1000 ? "met" : "MISSED"})`);
}

try {
  if (only !== "synthetic") tools();
  if (only !== "tools") await synthetic();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

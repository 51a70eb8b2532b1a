// bench:corpus --largest / --cuts: each document generated as a user would, `twinspec rest` in a process of its own
// (a process shared with earlier documents and their type-checks pays for their heap in every collection), then
// its output type-checked alone, in a fresh program and process (strict, NodeNext: parsing, binding and checking,
// as tsc would).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DIRECTORY, OUT, RUNTIME } from "./corpus-paths.js";
import { createChecker } from "./typecheck.js";

interface SizeRow {
  file: string;
  mb: number;
  operations: number;
  generateMs: number;
  /** user + system CPU of the process (both threads), when /usr/bin/time is there to say */
  cpuMs?: number;
  maxRssMb?: number;
  typecheckMs?: number;
  load: number;
  typecheckLoad?: number;
  failure?: string;
}

const TIME = "/usr/bin/time";
const load = () => Math.round(loadavg()[0] * 100) / 100;

function generate(file: string, dir: string): Omit<SizeRow, "file" | "mb" | "operations" | "load"> {
  const cli = [process.execPath, "bin/twinspec.js", "rest", file, "--out", dir, "--runtime", RUNTIME];
  const timed = existsSync(TIME);
  const started = performance.now();
  const run = timed
    ? spawnSync(TIME, ["-f", "%e %U %S %M", ...cli], { encoding: "utf8" })
    : spawnSync(cli[0], cli.slice(1), { encoding: "utf8" });
  const generateMs = Math.round(performance.now() - started);
  const failure =
    run.status === 0
      ? undefined
      : `exit ${run.status}: ${run.stderr.trim().split("\n").slice(-2).join(" ").slice(0, 200)}`;
  if (!timed) return { generateMs, failure };
  const [wall, user, sys, kb] = run.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return {
    generateMs: Math.round(wall * 1000),
    cpuMs: Math.round((user + sys) * 1000),
    maxRssMb: Math.round(kb / 1024),
    failure,
  };
}

/** Type-checks `dir`'s files in one fresh program; with the time of the program alone (parse, bind, check). */
function checkDir(dir: string): { ms: number; count: number; errors: string[] } {
  const files = new Map(readdirSync(dir).map((f) => [resolve(dir, f), readFileSync(join(dir, f), "utf8")]));
  const started = performance.now();
  const result = createChecker()(new Map([[dir, files]])).get(dir)!;
  return { ...result, ms: Math.round(performance.now() - started) };
}

/** The type-check in a process of its own too (`node bench/sizes.ts <dir>`), as tsc would run. */
function typecheck(dir: string): Pick<SizeRow, "typecheckMs" | "failure"> {
  const run = spawnSync(process.execPath, ["--max-old-space-size=8192", "--import", "tsx", "bench/sizes.ts", dir], {
    encoding: "utf8",
  });
  if (run.status !== 0)
    return { failure: `typecheck: exit ${run.status}: ${run.stderr.trim().split("\n").at(-1)?.slice(0, 200)}` };
  const result = JSON.parse(run.stdout) as ReturnType<typeof checkDir>;
  return {
    typecheckMs: result.ms,
    failure:
      result.count > 0 ? `typecheck: ${result.count} errors: ${result.errors.join(" | ").slice(0, 200)}` : undefined,
  };
}

/** Generates and type-checks each file; prints and returns the table (markdown). */
export function runBySize(files: string[], command: string, { typecheck: check = true } = {}): string {
  console.log(`${command}: ${files.length} documents`);
  const rows: SizeRow[] = [];
  for (const file of files) {
    const name = file.startsWith(DIRECTORY) ? relative(DIRECTORY, file) : basename(file);
    const dir = resolve(OUT, name.replace(/[^\w.-]+/g, "_"));
    rmSync(dir, { recursive: true, force: true });
    const row: SizeRow = {
      file: name,
      mb: Math.round(statSync(file).size / 1e4) / 100,
      operations: 0,
      load: load(),
      ...generate(file, dir),
    };
    if (!row.failure) {
      row.operations = (readFileSync(join(dir, "rest.ts"), "utf8").match(/^ {4}operationId: /gm) ?? []).length;
      if (check) {
        row.typecheckLoad = load();
        Object.assign(row, typecheck(dir));
      }
    }
    console.log(
      `${name} ${row.mb} MB ${row.operations} operations: generate ${row.generateMs} ms, type-check ${row.typecheckMs ?? "—"} ms, load ${row.load} / ${row.typecheckLoad ?? "—"}${row.failure ? ` ${row.failure}` : ""}`,
    );
    rows.push(row);
  }
  const table = sizeTable(rows, command);
  console.log(`\n${table}`);
  return table;
}

const s = (ms?: number) => (ms === undefined ? "—" : (ms / 1000).toFixed(1));

/** Time by size, smallest first: linear growth shows as a steady "ms per MB". */
function sizeTable(rows: SizeRow[], command: string): string {
  const row = (cells: unknown[]) => `| ${cells.join(" | ")} |`;
  return [
    `# ${command} — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    "`twinspec rest` in a process of its own (wall time, and CPU of both threads); the output type-checked alone.",
    "",
    row([
      "document",
      "MB",
      "operations",
      "generate s",
      "CPU s",
      "ms per MB",
      "max RSS MB",
      "type-check s",
      "load average (generate / check)",
      "result",
    ]),
    row(["---", "---", "---", "---", "---", "---", "---", "---", "---", "---"]),
    ...[...rows]
      .sort((a, b) => a.mb - b.mb)
      .map((r) =>
        row([
          r.file,
          r.mb,
          r.operations,
          s(r.generateMs),
          s(r.cpuMs),
          Math.round(r.generateMs / Math.max(r.mb, 0.01)),
          r.maxRssMb ?? "—",
          s(r.typecheckMs),
          `${r.load} / ${r.typecheckLoad ?? "—"}`,
          r.failure ?? "ok",
        ]),
      ),
    "",
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(checkDir(process.argv[2])));

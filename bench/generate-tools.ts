// `twinspec generate` against the two tools it stands on, run alone on the same specs: `npx openapi-typescript
// openapi.yaml -o …` and `npx graphql-codegen --config codegen.yml`. For each project (the commerce service at the
// root, the library-style fixture of the runtime package), a copy in bench/.tmp (so its imports resolve from the
// repository's node_modules) is generated with the part cache off (cold), with the part cache warm (inputs
// unchanged), and checked against its stamp (`--check`); the tools run in a copy of their own. Runs alternate between
// Twinspec and the tools so that both see the same load; CPU is user + system of the command and its children (the
// shell's `times`), the figure that load disturbs least; the median of the runs is printed, and the ratio.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "packages/twinspec-dev/bin/twinspec.js");

export const PROJECTS = {
  commerce: ROOT,
  fixture: join(ROOT, "packages/twinspec/test/fixture"),
} as const;

/** What a project's generate reads: its specs, codegen.yml, src/ (stubs, migrations), client/ and generated/. */
const PROJECT_FILES = ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src", "client", "generated"];

interface Run {
  cpu: number;
  wall: number;
}

/** `command` in `cwd` under sh, with the CPU its processes used (the shell's `times`: the children's user + sys). */
function measured(command: string, cwd: string, env: Record<string, string> = {}): Run {
  const started = performance.now();
  const run = spawnSync("sh", ["-c", `${command} >/dev/null 2>/tmp/twinspec-bench-generate.err || exit 1; times`], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0)
    throw new Error(`${command} failed in ${cwd}; its stderr is in /tmp/twinspec-bench-generate.err`);
  // times prints the shell's own user/sys, then its children's: "0m4.05s 0m0.49s".
  const children = run.stdout.trim().split("\n").at(-1) ?? "";
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  return { cpu, wall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function copy(from: string, to: string, files: string[]) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const f of files)
    if (existsSync(join(from, f)))
      cpSync(join(from, f), join(to, f), {
        recursive: true,
        filter: (p) => !p.includes("node_modules") && !p.includes(`client${"/"}dist`),
      });
}

export interface Comparison {
  project: string;
  runs: number;
  cold: Run;
  cached: Run;
  check: Run;
  tools: Run;
  /** cold generate's CPU ÷ the tools' */
  ratio: number;
}

/** The medians of `runs` alternated runs on `project`. */
export function compareWithTools(project: keyof typeof PROJECTS, runs: number, tmp: string): Comparison {
  const app = join(tmp, `${project}-app`);
  const tools = join(tmp, `${project}-tools`);
  copy(PROJECTS[project], app, PROJECT_FILES);
  copy(PROJECTS[project], tools, ["openapi.yaml", "schema.graphql", "codegen.yml", "client"]);
  const generate = `node ${relative(app, BIN)} generate`;
  const toolsCommand = `npx openapi-typescript openapi.yaml -o ${join(tools, "openapi-typescript.ts")} && npx graphql-codegen --config codegen.yml`;
  measured(generate, app); // fills the part cache, the stamp and the bundle of the CLI's sources
  const all: Record<"cold" | "cached" | "check" | "tools", Run[]> = { cold: [], cached: [], check: [], tools: [] };
  for (let i = 0; i < runs; i++) {
    all.cold.push(measured(generate, app, { TWINSPEC_GENERATE_CACHE: "0" }));
    all.tools.push(measured(toolsCommand, tools));
    all.cached.push(measured(generate, app));
    all.check.push(measured(`${generate} --check`, app));
  }
  const med = (rs: Run[]): Run => ({ cpu: median(rs.map((r) => r.cpu)), wall: median(rs.map((r) => r.wall)) });
  const cold = med(all.cold);
  const toolsRun = med(all.tools);
  return {
    project,
    runs,
    cold,
    cached: med(all.cached),
    check: med(all.check),
    tools: toolsRun,
    ratio: cold.cpu / toolsRun.cpu,
  };
}

/** One line per figure, for people. */
export function comparisonLines(c: Comparison): string[] {
  const f = (r: Run) => `${r.cpu.toFixed(2)} s CPU, ${r.wall.toFixed(2)} s wall`;
  return [
    `${c.project} (median of ${c.runs}):`,
    `  twinspec generate, nothing cached  ${f(c.cold)}`,
    `  twinspec generate, parts cached    ${f(c.cached)}`,
    `  twinspec generate --check, stamp   ${f(c.check)}`,
    `  openapi-typescript + graphql-codegen  ${f(c.tools)}`,
    `  cold generate ÷ the tools: ${c.ratio.toFixed(2)} × CPU (target ≤ 1.0: ${c.ratio <= 1 ? "met" : "MISSED"})`,
  ];
}

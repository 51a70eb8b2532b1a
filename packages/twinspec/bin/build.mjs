// `twinspec build` (npm run build): compiles the application (tsconfig.build.json → dist/app, importing the twinspec
// package's compiled dist/), copies what tsc does not emit (the validators compiled at generate time, CommonJS), and
// removes compiled files whose source is gone, so a deleted module or migration is never served. When this package
// is a workspace of the application's repository (not an install under node_modules) it is compiled first.
// `--if-stale` builds only when a source is newer than the last build: `twinspec start` does the same, so a fresh
// clone, a pull or an edit never serves stale code. `--prepare` (npm install's prepare script) keeps the dist/ of a
// production install that has no sources or no compiler.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The application's folder: TWINSPEC_ROOT, else the nearest folder at or above the working directory with a package.json. */
function findRoot(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

export const root = process.env.TWINSPEC_ROOT ? resolve(process.env.TWINSPEC_ROOT) : findRoot(process.cwd());
const pkg = realpathSync(join(dirname(fileURLToPath(import.meta.url)), ".."));
/** Whether a package folder is a checkout's workspace (its sources beside it), not an install under node_modules. */
export const inCheckout = (dir) => !dir.split(sep).includes("node_modules") && existsSync(join(dir, "src"));
/** This package in a checkout: compiled here too. */
const workspace = inCheckout(pkg);
const out = join(root, "dist/app");
const stamp = join(out, ".built");
const tscBin = (() => {
  try {
    return createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    return undefined;
  }
})();

/** The latest modification time of the files under `dir` (0 when there is none). */
export function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether this install can compile: sources and the compiler (a production install has neither, only dist/). */
export function canBuild() {
  return existsSync(join(root, "src")) && tscBin !== undefined;
}

export function stale() {
  if (!canBuild()) return false;
  if (!existsSync(stamp)) return true;
  const inputs = Math.max(
    newest(join(root, "src")),
    newest(join(root, "generated")),
    ...(workspace ? [newest(join(pkg, "src")), statSync(join(pkg, "tsconfig.build.json")).mtimeMs] : []),
    ...["package.json", "tsconfig.json", "tsconfig.build.json"].map((f) =>
      existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 0,
    ),
  );
  return inputs > statSync(stamp).mtimeMs;
}

/** Compiles a TypeScript project with the compiler at `bin` (default: the application's); throws naming `what`. */
export function tsc(project, what, bin = tscBin) {
  const run = spawnSync(process.execPath, [bin, "-p", project], { stdio: "inherit" });
  if (run.status !== 0) throw new Error(`${what} does not compile; see the errors above (npm run typecheck)`);
}

const OUTPUT = /(\.d)?\.(js|mjs|cjs|ts|mts|cts)(\.map)?$/;

/** Deletes every compiled file under `outDir` whose source under `srcDir` no longer exists; returns how many. */
export function removeOrphans(outDir, srcDir) {
  let removed = 0;
  if (!existsSync(outDir)) return removed;
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    const path = join(outDir, entry.name);
    const source = join(srcDir, entry.name);
    if (entry.isDirectory()) {
      if (!existsSync(source)) {
        rmSync(path, { recursive: true, force: true });
        removed++;
      } else removed += removeOrphans(path, source);
      continue;
    }
    if (!OUTPUT.test(entry.name) || entry.name.startsWith(".")) continue;
    const base = entry.name.replace(OUTPUT, "");
    const candidates = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"].map((ext) => join(srcDir, base + ext));
    if (!candidates.some((c) => existsSync(c))) {
      rmSync(path);
      removed++;
    }
  }
  return removed;
}

/** Whether assets/swagger-ui/ holds the installed swagger-ui-dist's files (its VERSION is that version). */
function swaggerUiCurrent() {
  const have = join(pkg, "assets/swagger-ui/VERSION");
  if (!existsSync(have)) return false;
  try {
    const dist = createRequire(join(pkg, "package.json")).resolve("swagger-ui-dist/package.json");
    return JSON.parse(readFileSync(dist, "utf8")).version === readFileSync(have, "utf8").trim();
  } catch {
    return true; // no swagger-ui-dist to copy from: keep what is there
  }
}

/**
 * The package's declarations and its bundle (scripts/bundle.mjs), GraphiQL's prebuilt assets when a checkout has none yet, and
 * Swagger UI's when it has none or another version's.
 */
export function buildPackage() {
  tsc(join(pkg, "tsconfig.build.json"), "the twinspec package");
  removeOrphans(join(pkg, "dist"), join(pkg, "src"));
  const bundled = spawnSync(process.execPath, [join(pkg, "scripts/bundle.mjs")], { stdio: "inherit" });
  if (bundled.status !== 0) throw new Error("the twinspec package does not bundle; see the errors above");
  const assets = [
    ["scripts/graphiql.mjs", "GraphiQL's", existsSync(join(pkg, "assets/graphiql/graphiql.js"))],
    ["scripts/swagger-ui.mjs", "Swagger UI's", swaggerUiCurrent()],
  ];
  for (const [script, what, current] of assets) {
    if (current) continue;
    const run = spawnSync(process.execPath, [join(pkg, script)], { stdio: "inherit" });
    if (run.status !== 0) throw new Error(`${what} assets do not build; see the errors above`);
  }
}

export function build() {
  if (workspace) buildPackage();
  tsc(join(root, "tsconfig.build.json"), "the application");
  mkdirSync(join(out, "generated"), { recursive: true });
  for (const file of readdirSync(join(root, "generated")))
    if (file.endsWith(".cjs")) copyFileSync(join(root, "generated", file), join(out, "generated", file));
  for (const dir of ["src", "generated"]) removeOrphans(join(out, dir), join(root, dir));
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/** The command: `twinspec build [--if-stale] [--prepare]`; returns the exit code. */
export function main(args) {
  if (args.includes("--prepare") && !canBuild()) {
    // npm install / npm ci run this. A production install (npm ci --omit=dev, no compiler, dist/ copied in) keeps
    // the build it was given.
    if (existsSync(join(out, "src/main.js"))) return 0;
    console.error(
      "twinspec: no TypeScript compiler and no dist/app: copy dist/ from a build (npm run build), or install with dev dependencies",
    );
    return 1;
  }
  if (!args.includes("--if-stale") || stale()) {
    const started = performance.now();
    try {
      build();
    } catch (error) {
      console.error(`twinspec: ${error.message}`);
      return 1;
    }
    console.error(
      `built ${workspace ? "packages/twinspec/dist and " : ""}${relative(process.cwd(), out) || "."} in ${Math.round(performance.now() - started)} ms`,
    );
  }
  return 0;
}

#!/usr/bin/env node
// npm run build: compiles the twinspec package (packages/twinspec/dist) and then the application (dist/app, which
// imports the package's dist/), copies what tsc does not emit (the validators compiled at generate time, CommonJS),
// and removes compiled files whose source is gone, so a deleted module or migration is never served. `--if-stale`
// builds only when a source is newer than the last build: npm start uses it, so a fresh clone, a pull or an edit
// never serves stale code.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "packages/twinspec");
const out = join(root, "dist/app");
const stamp = join(out, ".built");
const tscBin = join(root, "node_modules/typescript/bin/tsc");

function newest(dir) {
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
  return existsSync(join(root, "src")) && existsSync(tscBin);
}

export function stale() {
  if (!canBuild()) return false;
  if (!existsSync(stamp)) return true;
  const inputs = Math.max(
    newest(join(root, "src")),
    newest(join(root, "generated")),
    newest(join(pkg, "src")),
    ...["package.json", "tsconfig.json", "tsconfig.build.json", "packages/twinspec/tsconfig.build.json"].map((f) => statSync(join(root, f)).mtimeMs),
  );
  return inputs > statSync(stamp).mtimeMs;
}

function tsc(project, what) {
  const run = spawnSync(process.execPath, [tscBin, "-p", project], { stdio: "inherit" });
  if (run.status !== 0) throw new Error(`${what} does not compile; see the errors above (npm run typecheck)`);
}

const SOURCE = /\.(ts|mts|cts)$/;
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

/** The package's compiled API, with its migrations and the validator worker tsc does not copy. */
export function buildPackage() {
  tsc(join(pkg, "tsconfig.build.json"), "the twinspec package");
  for (const file of ["codegen/validators-worker.mjs"]) copyFileSync(join(pkg, "src", file), join(pkg, "dist", file));
  removeOrphans(join(pkg, "dist"), join(pkg, "src"));
}

export function build() {
  buildPackage();
  tsc(join(root, "tsconfig.build.json"), "the application");
  mkdirSync(join(out, "generated"), { recursive: true });
  for (const file of readdirSync(join(root, "generated"))) if (file.endsWith(".cjs")) copyFileSync(join(root, "generated", file), join(out, "generated", file));
  for (const dir of ["src", "generated"]) removeOrphans(join(out, dir), join(root, dir));
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--prepare")) {
    // npm install / npm ci run this. A production install (npm ci --omit=dev, no compiler, dist/ copied in) keeps
    // the build it was given.
    if (!canBuild()) {
      if (!existsSync(join(out, "src/main.js"))) {
        console.error("twinspec: no TypeScript compiler and no dist/app: copy dist/ from a build (npm run build), or install with dev dependencies");
        process.exit(1);
      }
      process.exit(0);
    }
  }
  if (!process.argv.includes("--if-stale") || stale()) {
    const started = performance.now();
    build();
    console.error(`built packages/twinspec/dist and dist/app in ${Math.round(performance.now() - started)} ms (${relative(process.cwd(), out) || "."})`);
  }
}

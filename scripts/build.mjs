#!/usr/bin/env node
// npm run build: compiles the server to dist/app (tsc -p tsconfig.build.json) and copies what tsc does not emit
// (the validators compiled at generate time, CommonJS). `--if-stale` builds only when a source is newer than the
// last build: npm start uses it, so a fresh clone, a pull or an edit never serves stale code.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/app");
const stamp = join(out, ".built");

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether this install can compile: sources and the compiler (a production install has neither, only dist/). */
export function canBuild() {
  return existsSync(join(root, "src")) && existsSync(join(root, "node_modules/typescript/bin/tsc"));
}

export function stale() {
  if (!canBuild()) return false;
  if (!existsSync(stamp)) return true;
  const inputs = Math.max(newest(join(root, "src")), newest(join(root, "generated")), ...["package.json", "tsconfig.json", "tsconfig.build.json"].map((f) => statSync(join(root, f)).mtimeMs));
  return inputs > statSync(stamp).mtimeMs;
}

export function build() {
  const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
  if (tsc.status !== 0) throw new Error("the server does not compile; see the errors above (npm run typecheck)");
  mkdirSync(join(out, "generated"), { recursive: true });
  for (const file of readdirSync(join(root, "generated"))) if (file.endsWith(".cjs")) copyFileSync(join(root, "generated", file), join(out, "generated", file));
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/** The REST runtime that generated rest.ts files import as "twinspec/runtime" (dist/runtime). */
function buildRuntime() {
  const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.runtime.json")], { stdio: "inherit" });
  if (tsc.status !== 0) throw new Error("the REST runtime does not compile; see the errors above");
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
    buildRuntime();
  }
  if (!process.argv.includes("--if-stale") || stale()) {
    const started = performance.now();
    build();
    console.error(`built dist/app in ${Math.round(performance.now() - started)} ms`);
  }
}

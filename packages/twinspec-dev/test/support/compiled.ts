// An application's TypeScript compiled to JavaScript, for the kit's child mochas: a copy of the application under
// test/.tmp with each .ts (not .d.ts) turned into the .js its imports already name, and the packages it imports
// (twinspec, twinspec-dev) built to their dist/, as an installed application has them. Node then runs it with no
// TypeScript loader: under tsx every module a process loads, node_modules' JavaScript included, makes a round trip to
// the loader's hooks thread, and the kit's tests start many short processes.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { transformSync } from "esbuild";
import { buildPackage, newest } from "../../../twinspec/bin/build.mjs";

const DEV = resolve(import.meta.dirname, "../..");
const RUNTIME = resolve(DEV, "../twinspec");

const builtAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);

const built = new Set<string>();

/** Builds a workspace package by its `npm run build` when a source is newer than its last build (dist/.built). */
function buildWhenStale(dir: string, after: number): void {
  const stamp = join(dir, "dist/.built");
  const inputs = Math.max(newest(join(dir, "src")), builtAt(join(dir, "tsconfig.build.json")), after);
  if (inputs <= builtAt(stamp)) return;
  const run = spawnSync("npm", ["run", "-s", "build"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${basename(dir)} does not build:\n${run.stdout}${run.stderr}`);
  writeFileSync(stamp, "");
  const now = new Date();
  utimesSync(stamp, now, now);
}

/**
 * Builds twinspec's dist/, and that of each package of `others` (twinspec-dev, twinspec-client), when a source is
 * newer than its last build (npm test builds them all before its parts start: test/support/build-packages.ts);
 * each once per process.
 */
export function ensurePackagesBuilt(others: ("twinspec-dev" | "twinspec-client")[] = []): void {
  if (!built.has("twinspec") && newest(join(RUNTIME, "src")) > builtAt(join(RUNTIME, "dist/index.js"))) buildPackage();
  built.add("twinspec");
  for (const name of others) {
    if (built.has(name)) continue;
    // twinspec-dev's declarations import twinspec's: built again after it.
    buildWhenStale(resolve(DEV, "..", name), name === "twinspec-dev" ? builtAt(join(RUNTIME, "dist/index.js")) : 0);
    built.add(name);
  }
}

/** Compiles each .ts file under `dir` (not .d.ts) to the .js beside it, with an inline source map, and removes it. */
function compileTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) compileTree(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
      const { code } = transformSync(readFileSync(path, "utf8"), {
        loader: "ts",
        format: "esm",
        target: "node20",
        sourcemap: "inline",
        sourcefile: path,
      });
      writeFileSync(path.replace(/\.ts$/, ".js"), code);
      rmSync(path);
    }
  }
}

export interface CompiledCopy {
  /** the copy's folder, in place of the application's */
  dir: string;
  /** the JavaScript of `file` (the application's, or a spec file of this package run against it) */
  file(file: string): string;
  remove(): void;
}

/**
 * The application at `root` compiled, in a folder of its own under this package's test/.tmp (inside the repository,
 * so that it resolves twinspec and the libraries as the original does); `remove` deletes it. `kit`: it imports
 * twinspec-dev too (default), so that is built as well.
 */
export function compiledCopy(root: string, kit = true): CompiledCopy {
  ensurePackagesBuilt(kit ? ["twinspec-dev"] : []);
  const base = join(DEV, "test/.tmp");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `compiled-${basename(root)}-`));
  cpSync(root, dir, {
    recursive: true,
    filter: (from) => !/[/\\](node_modules|data|dist|\.tsbuildinfo)$/.test(from),
  });
  compileTree(dir);
  return {
    dir,
    file(file) {
      const path = resolve(file);
      const inside = relative(root, path);
      if (!inside.startsWith("..")) return join(dir, inside).replace(/\.ts$/, ".js");
      // A spec file of this package: compiled into the copy, beside nothing it imports relatively.
      const runner = join(dir, ".runner", relative(DEV, path));
      mkdirSync(join(runner, ".."), { recursive: true });
      cpSync(path, runner);
      compileTree(join(runner, ".."));
      return runner.replace(/\.ts$/, ".js");
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

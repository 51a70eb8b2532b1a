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
import { buildPackage } from "../../../twinspec/bin/build.mjs";

const DEV = resolve(import.meta.dirname, "../..");
const RUNTIME = resolve(DEV, "../twinspec");

/** The latest modification time of the files under `dir` (0 when there is none). */
function newest(dir: string): number {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const builtAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);

let built = false;

let kitBuilt = false;

/**
 * Builds twinspec's dist/, and twinspec-dev's when `kit`, when a source is newer than the last build (npm test builds
 * twinspec before its parts start; twinspec-dev's build is this package's `npm run build`); once per process.
 */
function ensurePackagesBuilt(kit: boolean): void {
  if (!built && newest(join(RUNTIME, "src")) > builtAt(join(RUNTIME, "dist/index.js"))) buildPackage();
  built = true;
  if (!kit || kitBuilt) return;
  const stamp = join(DEV, "dist/.built");
  const inputs = Math.max(newest(join(DEV, "src")), builtAt(join(DEV, "tsconfig.build.json")));
  if (inputs > builtAt(stamp) || builtAt(join(RUNTIME, "dist/index.js")) > builtAt(stamp)) {
    const run = spawnSync("npm", ["run", "-s", "build"], { cwd: DEV, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`twinspec-dev does not build:\n${run.stdout}${run.stderr}`);
    writeFileSync(stamp, "");
    const now = new Date();
    utimesSync(stamp, now, now);
  }
  kitBuilt = true;
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
  ensurePackagesBuilt(kit);
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

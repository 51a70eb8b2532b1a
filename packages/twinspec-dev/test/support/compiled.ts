// An application's TypeScript compiled to JavaScript, for the kit's child mochas: a copy of the application under
// test/.tmp with each .ts (not .d.ts) turned into the .js its imports already name, and the packages it imports
// (twinspec, twinspec-dev; twinspec-client for the type-checks of init's applications) built to their dist/, as an
// installed application has them. Node then runs it with no TypeScript loader: under tsx every module a process
// loads, node_modules' JavaScript included, makes a round trip to the loader's hooks thread, and the kit's tests
// start many short processes.
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
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { transformSync } from "esbuild";
import { buildPackage, newest } from "../../../twinspec/bin/build.mjs";

const DEV = resolve(import.meta.dirname, "../..");
const PACKAGES = resolve(DEV, "..");

const builtAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** Runs a workspace package's `npm run build`, then marks its dist/ built. */
function npmBuild(dir: string): void {
  const run = spawnSync("npm", ["run", "-s", "build"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${basename(dir)} does not build:\n${run.stdout}${run.stderr}`);
  writeFileSync(join(dir, "dist/.built"), "");
}

/**
 * Each package: the file its every build writes last (twinspec's is also built by the application's build, which
 * writes its bundle), how to build it, and the packages whose declarations it reads.
 */
const BUILDS = {
  twinspec: { stamp: "dist/index.js", build: () => buildPackage(), after: [] },
  "twinspec-client": { stamp: "dist/.built", build: npmBuild, after: [] },
  "twinspec-dev": { stamp: "dist/.built", build: npmBuild, after: ["twinspec"] },
} as const;

type Package = keyof typeof BUILDS;
const built = new Set<Package>();

/**
 * Builds each package of `names` (and twinspec, which they all read) when a source or its tsconfig.build.json is
 * newer than its last build, or a package it reads was built since; each once per process (npm test builds them
 * all before its parts start: test/support/build-packages.ts).
 */
export function ensurePackagesBuilt(names: Exclude<Package, "twinspec">[] = []): void {
  for (const name of ["twinspec", ...names] as Package[]) {
    if (built.has(name)) continue;
    const { stamp, build, after } = BUILDS[name];
    const dir = join(PACKAGES, name);
    const inputs = Math.max(
      newest(join(dir, "src")),
      builtAt(join(dir, "tsconfig.build.json")),
      ...after.map((other) => builtAt(join(PACKAGES, other, BUILDS[other].stamp))),
    );
    if (inputs > builtAt(join(dir, stamp))) build(dir);
    built.add(name);
  }
}

/** `source` compiled to `target`, with an inline source map naming `original` (the file the test author wrote). */
function compileFile(source: string, target: string, original: string): void {
  const { code } = transformSync(readFileSync(source, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: original,
  });
  writeFileSync(target, code);
}

/** Compiles each .ts file under `dir` (a copy of `from`; not .d.ts) to the .js beside it, and removes it. */
function compileTree(dir: string, from: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) compileTree(path, join(from, entry.name));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
      compileFile(path, path.replace(/\.ts$/, ".js"), join(from, entry.name));
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
  compileTree(dir, root);
  return {
    dir,
    file(file) {
      const path = resolve(file);
      const inside = relative(root, path);
      if (!inside.startsWith("..")) return join(dir, inside).replace(/\.ts$/, ".js");
      // A spec file of this package: compiled into the copy, beside nothing it imports relatively.
      const runner = join(dir, ".runner", relative(DEV, path)).replace(/\.ts$/, ".js");
      mkdirSync(dirname(runner), { recursive: true });
      compileFile(path, runner, path);
      return runner;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// generated/.twinspec-stamp.json: what the last successful `generate` was made from and what it wrote, as one SHA-256,
// so that `generate --check` on a project nothing has changed in answers at once instead of regenerating everything to
// compare. The hash covers the bytes of every input generate reads (the specs, codegen.yml, the files its
// schema/documents point at, workflows.arazzo.yaml, the migrations, the hand-written files the stubs go into), the
// generator (the versions of twinspec-dev, twinspec and the packages they generate with, the nearest lockfile, and the
// contents of the generator's own code) and the bytes of every file written (so a hand edit of generated/ is still
// caught). Everything is hashed by content and relative path, never mtimes or absolute paths: the stamp is committed
// with generated/ and matches on a fresh clone. When it does not match, or cannot be trusted (the inputs could not all
// be named: an external $ref, a remote schema, a migration importing from outside its folder, a codegen.yml key this
// does not know), --check does the full check as before: a stale stamp only costs time, never a wrong answer.
// This module is loaded on --check before anything heavy: node: built-ins only (yaml is imported when writing).
import { createHash, type Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "./package-root.js";

export const STAMP = ".twinspec-stamp.json";
/** The generated half of the client package (as generate-app's CLIENT_OUT): an output, hashed with outDir's files. */
const CLIENT_OUT = "client/generated";
/** Bump when what the hash covers changes: an older stamp then never matches. */
const FORMAT = 1;

interface Stamp {
  about: string;
  format: number;
  /** the inputs, relative to the project; a trailing "/" is a folder, hashed whole */
  inputs: string[];
  /** packages whose installed version the output depends on (codegen.yml's plugins and presets) */
  packages: string[];
  sha256: string;
}

/**
 * The generator's own code: src/codegen in a checkout (whether it runs under tsx or as the bundle bin/twinspec.js
 * makes of it, so both agree on the stamp), dist/codegen when installed. Tests may point it elsewhere.
 */
const generatorDir = () => {
  if (process.env.TWINSPEC_STAMP_GENERATOR_DIR) return process.env.TWINSPEC_STAMP_GENERATOR_DIR;
  const sources = join(packageRoot(), "src", "codegen");
  return existsSync(sources) ? sources : dirname(fileURLToPath(import.meta.url));
};

/** twinspec's code: its src/ in a checkout, else the folder of its compiled internals (dist/). */
function runtimeDir(runtimeManifest: string | undefined): string {
  const sources = runtimeManifest ? join(dirname(runtimeManifest), "src") : undefined;
  if (sources && existsSync(join(sources, "internals.ts"))) return sources;
  return dirname(fileURLToPath(import.meta.resolve("twinspec/internals")));
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)).map((f) => `${e.name}/${f}`) : e.isFile() ? [e.name] : [],
    )
    .sort();

/** A file's bytes, a folder's files (relative names and bytes, in order) or "absent", labelled by `label`. */
export function add(hash: Hash, label: string, path: string, { skip }: { skip?: string } = {}) {
  if (!existsSync(path)) {
    hash.update(`absent ${label}\n`);
    return;
  }
  if (statSync(path).isDirectory()) {
    hash.update(`dir ${label}\n`);
    for (const f of files(path)) if (f !== skip) add(hash, `${label}/${f}`, join(path, f));
    return;
  }
  const bytes = readFileSync(path);
  hash.update(`file ${label} ${bytes.length}\n`);
  hash.update(bytes);
}

/** Where a package is installed, looked up from `from` as Node does (node_modules folders upwards). */
function installed(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, "node_modules", name, "package.json");
    if (existsSync(pkg)) return pkg;
    if (dirname(dir) === dir) return undefined;
  }
}

const version = (pkg: string | undefined) =>
  pkg ? (JSON.parse(readFileSync(pkg, "utf8")) as { version?: string }).version : undefined;

/** The nearest lockfile, from the project up to its repository's root (not beyond: another machine has other folders). */
function lockfile(): string | undefined {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    for (const name of ["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"])
      if (existsSync(join(dir, name))) return join(dir, name);
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return undefined;
  }
}

let generator: string | undefined;

/**
 * The generator as it is installed, as one SHA-256 (computed once per process): its code, its version and twinspec's
 * (whose code it runs: the migrations database.ts applies, internals), the packages it generates with, the lockfile.
 */
export function generatorHash(): string {
  if (generator) return generator;
  const hash = createHash("sha256");
  const root = packageRoot();
  const self = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  hash.update(`twinspec-dev ${self.version}\n`);
  add(hash, "generator", generatorDir());
  const runtime = installed("twinspec", root);
  hash.update(`twinspec ${version(runtime)}\n`);
  add(hash, "twinspec", runtimeDir(runtime));
  // Its parts (openapi.yaml and schema.graphql fragments an application includes) are inputs too.
  if (runtime) add(hash, "twinspec parts", join(dirname(runtime), "parts"));
  // The packages it generates with (openapi-typescript, graphql-codegen, ajv, …) as installed, and codegen.yml's plugins.
  for (const dep of Object.keys(self.dependencies ?? {}).sort())
    hash.update(`dep ${dep} ${version(installed(dep, root))}\n`);
  const lock = lockfile();
  if (lock) add(hash, "lockfile", lock);
  return (generator = hash.digest("hex"));
}

/** The installed version of each of `packages` (codegen.yml's plugins), as the project or else the generator finds it. */
export const pluginVersions = (packages: string[]): string[] =>
  packages.map((name) => `${name} ${version(installed(name, process.cwd()) ?? installed(name, packageRoot()))}`);

/** The hash of the inputs, the generator and the outputs, as they are now. */
function currentHash(stamp: Omit<Stamp, "sha256" | "about">, outDir: string): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ format: stamp.format, inputs: stamp.inputs, packages: stamp.packages }) + "\n");
  hash.update(`generator ${generatorHash()}\n`);
  for (const line of pluginVersions(stamp.packages)) hash.update(`plugin ${line}\n`);
  for (const input of stamp.inputs) add(hash, `input ${input}`, input.replace(/\/$/, ""));
  add(hash, "out", outDir, { skip: STAMP });
  add(hash, "client", CLIENT_OUT);
  return hash.digest("hex");
}

/**
 * --check's fast answer: the line to print when the stamp in `outDir` matches the project as it is now, else
 * undefined (no stamp, or something changed: do the full check).
 */
export function stampMatches(outDir: string): string | undefined {
  const started = performance.now();
  const path = join(outDir, STAMP);
  if (!existsSync(path)) return undefined;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(path, "utf8")) as Stamp;
  } catch {
    return undefined;
  }
  if (stamp.format !== FORMAT || !Array.isArray(stamp.inputs) || !Array.isArray(stamp.packages)) return undefined;
  if (currentHash(stamp, outDir) !== stamp.sha256) return undefined;
  return `${outDir}/ is up to date: the inputs, the generator and the outputs are unchanged since the last generate (${STAMP} matched in ${Math.round(performance.now() - started)} ms)`;
}

const KNOWN_ROOT = new Set([
  "overwrite",
  "schema",
  "documents",
  "emitLegacyCommonJSImports",
  "generates",
  "config",
  "ignoreNoDocuments",
  "errorsOnly",
  "silent",
  "verbose",
]);
const KNOWN_OUTPUT = new Set(["plugins", "preset", "presetConfig", "config", "schema", "documents"]);
/** graphql-codegen's names for a plugin or preset "x": the packages it may come from. */
const candidates = (name: string, kind: "plugin" | "preset") => [
  `@graphql-codegen/${name}${kind === "preset" ? "-preset" : ""}`,
  `@graphql-codegen/${name}`,
  `graphql-codegen-${name}`,
  name,
];

/** The files (and folders) one schema/documents pointer of codegen.yml reads, or a reason they cannot be named. */
function pointerInputs(value: unknown): string[] | string {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") return "a schema or documents entry that is not a path";
    const pattern = item.replace(/^!/, ""); // a negation only leaves files out: its folder is hashed anyway
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pattern) || isAbsolute(pattern)) return `"${item}" (a URL or an absolute path)`;
    const glob = pattern.search(/[*?[\]{}()!]/);
    if (glob < 0) out.push(pattern);
    else
      out.push(
        `${
          pattern
            .slice(0, glob)
            .replace(/[^/]*$/, "")
            .replace(/\/$/, "") || "."
        }/`,
      );
  }
  return out;
}

/** What generate read besides the fixed files, from codegen.yml; a string says why it cannot all be named. */
export async function codegenInputs(): Promise<{ inputs: string[]; packages: string[] } | string> {
  const { parse } = await import("yaml");
  const config = parse(readFileSync("codegen.yml", "utf8")) as Record<string, unknown>;
  const unknown = Object.keys(config).find((k) => !KNOWN_ROOT.has(k));
  if (unknown) return `codegen.yml's "${unknown}"`;
  const inputs: string[] = [];
  const packages: string[] = [];
  const pointers = (from: Record<string, unknown>) => {
    for (const key of ["schema", "documents"]) {
      const found = pointerInputs(from[key]);
      if (typeof found === "string") return found;
      inputs.push(...found);
    }
    return undefined;
  };
  const rootProblem = pointers(config);
  if (rootProblem) return rootProblem;
  for (const [file, output] of Object.entries((config.generates ?? {}) as Record<string, Record<string, unknown>>)) {
    const key = Object.keys(output ?? {}).find((k) => !KNOWN_OUTPUT.has(k));
    if (key) return `codegen.yml's "${key}" for ${file}`;
    const problem = pointers(output);
    if (problem) return problem;
    const named = [
      ...((output.plugins as unknown[] | undefined) ?? []).map(
        (p) => [typeof p === "string" ? p : Object.keys(p as object)[0], "plugin"] as const,
      ),
      ...(typeof output.preset === "string"
        ? [[output.preset, "preset"] as const]
        : output.preset === undefined
          ? []
          : [[undefined, "preset"] as const]),
    ];
    for (const [name, kind] of named) {
      if (typeof name !== "string") return `a ${kind} of ${file} that is not a name`;
      if (name.startsWith(".") || isAbsolute(name)) {
        if (isAbsolute(name)) return `the ${kind} "${name}" (an absolute path)`;
        inputs.push(name);
      } else packages.push(...candidates(name === "client" && kind === "preset" ? "client" : name, kind));
    }
  }
  return { inputs, packages };
}

/** Why database.ts's migrations cannot be named by their folder alone (one imports from outside it), if so. */
export function migrationsProblem(folder: string): string | undefined {
  if (!existsSync(folder)) return undefined;
  for (const f of files(folder)) {
    const text = readFileSync(join(folder, f), "utf8");
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      if (spec.startsWith(".") && relative(folder, join(folder, dirname(f), spec)).startsWith(".."))
        return `${folder}/${f} imports ${spec}`;
    }
  }
  return undefined;
}

/** Whether openapi.yaml has an external $ref: it pulls in files (or URLs) of its own, not named here. */
export const externalRef = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.some(externalRef)
    : v !== null && typeof v === "object"
      ? Object.entries(v).some(
          ([k, x]) => (k === "$ref" && typeof x === "string" && !x.startsWith("#")) || externalRef(x),
        )
      : false;

/**
 * After a successful generate: writes the stamp into `outDir` (or, when the inputs cannot all be named, removes any
 * stamp there and says why, so --check always does the full check). `stubFiles` are the hand-written files the stubs
 * go into, whose contents decide whether --check finds stubs missing; `document` is openapi.yaml as generate read it.
 */
export async function writeStamp(outDir: string, stubFiles: string[], document: unknown): Promise<string | undefined> {
  const path = join(outDir, STAMP);
  const codegen = await codegenInputs();
  const problem =
    typeof codegen === "string"
      ? codegen
      : externalRef(document)
        ? "openapi.yaml has an external $ref"
        : migrationsProblem("src/migrations");
  if (problem || typeof codegen === "string") {
    rmSync(path, { force: true });
    return `no ${STAMP} (generate --check will always regenerate to compare): ${problem}`;
  }
  const inputs = [
    ...new Set(
      [
        "openapi.yaml",
        "schema.graphql",
        "codegen.yml",
        "workflows.arazzo.yaml",
        "src/migrations/",
        ...codegen.inputs,
        ...stubFiles,
      ].map((p) => p.split(sep).join("/")),
    ),
  ];
  const stamp = { format: FORMAT, inputs, packages: [...new Set(codegen.packages)] };
  const about =
    "written by `twinspec generate`: a hash of its inputs, the generator and its outputs, so `generate --check` is instant when none changed. Commit it with generated/.";
  writeFileSync(path, `${JSON.stringify({ about, ...stamp, sha256: currentHash(stamp, outDir) }, null, 2)}\n`);
  return undefined;
}

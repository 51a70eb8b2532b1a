// Module hooks (node:module register) for the server `twinspec dev` runs: the application's TypeScript is compiled
// with esbuild (tsx's own compiler, found through tsx) as Node loads it, and nothing else is touched. tsx's loader
// also rewrites JavaScript it loads (the runtime's bundle among it), which costs more than the application itself.
// A relative import written `./x.js` (TypeScript's NodeNext convention) finds `./x.ts` when there is no x.js.
// Each compiled module is kept in node_modules/.cache/twinspec-dev by the hash of its path and text, so a restart
// compiles only the files that changed since (after a save: the generated files and the stubs), not all of them.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(createRequire(import.meta.url).resolve("tsx"));
/** Loaded at the first file to compile: a restart that finds every file in the cache never starts esbuild. */
let esbuild;
const TYPESCRIPT = /\.m?ts$/;
const OPTIONS = { loader: "ts", format: "esm", target: "node20", sourcemap: "inline" };

/** The cache folder: under the nearest node_modules above the working directory (none: no cache). */
const CACHE = (() => {
  for (let dir = resolvePath("."); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "twinspec-dev");
    if (dirname(dir) === dir) return undefined;
  }
})();
const ESBUILD_VERSION = JSON.parse(readFileSync(require.resolve("esbuild/package.json"), "utf8")).version;

/** `text` (the file at `path`) as JavaScript, from the cache or compiled now (and then kept). */
function compiled(path, text) {
  const key = createHash("sha256").update(`${ESBUILD_VERSION}\n${JSON.stringify(OPTIONS)}\n${path}\n${text}`);
  const cached = CACHE && join(CACHE, `${key.digest("hex").slice(0, 32)}.js`);
  if (cached && existsSync(cached)) return readFileSync(cached, "utf8");
  esbuild ??= require("esbuild");
  const { code } = esbuild.transformSync(text, { ...OPTIONS, sourcefile: path });
  if (cached) {
    try {
      mkdirSync(CACHE, { recursive: true });
      writeFileSync(`${cached}.${process.pid}`, code);
      renameSync(`${cached}.${process.pid}`, cached);
    } catch {
      // a cache that cannot be written only costs the next start its compile
    }
  }
  return code;
}

/** The query dev-server.mjs gives each generation of the application's modules, so a reload evaluates them afresh. */
const GENERATION = "twinspec-dev";

export async function resolve(specifier, context, nextResolve) {
  let resolved;
  if (/^\.\.?\//.test(specifier) && /\.m?js$/.test(specifier) && context.parentURL?.startsWith("file:")) {
    const url = new URL(specifier, context.parentURL);
    if (!existsSync(url)) {
      const ts = new URL(url.href.replace(/js$/, "ts"));
      if (existsSync(ts)) resolved = { url: ts.href, format: "module", shortCircuit: true };
    }
  }
  resolved ??= await nextResolve(specifier, context);
  // The application's own modules inherit the generation of the module importing them: those it imports by a path
  // (packages, imported by name, are loaded once, whatever folder they are linked from).
  const generation =
    /^(\.\.?\/|\/|file:)/.test(specifier) &&
    context.parentURL?.startsWith("file:") &&
    new URL(context.parentURL).searchParams.get(GENERATION);
  if (generation && resolved.url.startsWith("file:") && !resolved.url.includes("/node_modules/")) {
    const url = new URL(resolved.url);
    url.searchParams.set(GENERATION, generation);
    return { ...resolved, url: url.href };
  }
  return resolved;
}

export async function load(url, context, nextLoad) {
  const pathname = url.replace(/[?#].*$/, "");
  if (!url.startsWith("file:") || !TYPESCRIPT.test(pathname) || pathname.endsWith(".d.ts"))
    return nextLoad(url, context);
  const path = fileURLToPath(url);
  return { format: "module", source: compiled(path, readFileSync(path, "utf8")), shortCircuit: true };
}

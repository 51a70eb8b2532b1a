// Module hooks (node:module register) for the server `twinspec dev` runs: the application's TypeScript is compiled
// with esbuild (tsx's own compiler, found through tsx) as Node loads it, and nothing else is touched. tsx's loader
// also rewrites JavaScript it loads (the runtime's bundle among it), which costs more than the application itself.
// A relative import written `./x.js` (TypeScript's NodeNext convention) finds `./x.ts` when there is no x.js.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(createRequire(import.meta.url).resolve("tsx"));
const { transformSync } = require("esbuild");
const TYPESCRIPT = /\.m?ts$/;

export async function resolve(specifier, context, nextResolve) {
  if (/^\.\.?\//.test(specifier) && /\.m?js$/.test(specifier) && context.parentURL?.startsWith("file:")) {
    const url = new URL(specifier, context.parentURL);
    if (!existsSync(url)) {
      const ts = new URL(url.href.replace(/js$/, "ts"));
      if (existsSync(ts)) return { url: ts.href, format: "module", shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !TYPESCRIPT.test(url) || url.endsWith(".d.ts")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = transformSync(readFileSync(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: path,
  });
  return { format: "module", source: code, shortCircuit: true };
}

// Bundles the web example (main.ts and the parts of the client package it uses) into one minified ES module beside
// a copy of index.html: `npx tsx examples/web/build.ts [outDir]` (default examples/web/dist/), then serve that
// directory. The conditions pick the client's TypeScript sources (twinspec-source) and its browser builds (browser):
// the GraphQL client's browser entry uses the page's own WebSocket, so nothing of Node (`ws`) is bundled.
import { build } from "esbuild";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));

export interface WebBuild {
  /** the bundle, main.js, next to index.html */
  file: string;
  bytes: number;
  /** what it weighs over the wire when served gzip-compressed */
  gzipBytes: number;
  /** every source file esbuild put in the bundle (its metafile's inputs), relative to the current directory */
  inputs: string[];
}

export async function buildWeb(outDir = join(here, "dist")): Promise<WebBuild> {
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, "main.js");
  const result = await build({
    entryPoints: [join(here, "main.ts")],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    conditions: ["twinspec-source", "browser"],
    // graphql-js checks NODE_ENV for its development-only instanceof diagnostics.
    define: { "process.env.NODE_ENV": '"production"' },
    metafile: true,
    logLevel: "warning",
  });
  await copyFile(join(here, "index.html"), join(outDir, "index.html"));
  const code = await readFile(file);
  return { file, bytes: code.length, gzipBytes: gzipSync(code).length, inputs: Object.keys(result.metafile.inputs) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const built = await buildWeb(process.argv[2]);
  console.log(
    `${relative(process.cwd(), built.file)}: ${built.bytes} bytes, ${built.gzipBytes} gzipped, from ${built.inputs.length} files`,
  );
}

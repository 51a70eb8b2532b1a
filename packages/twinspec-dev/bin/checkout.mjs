// In a checkout of Twinspec, the `twinspec` command runs the current sources as compiled JavaScript, not through a
// TypeScript loader: esbuild bundles src/ (with the twinspec and twinspec-client sources it imports, under the
// `twinspec-source` condition; every other package stays an import of node_modules) into node_modules/.cache/, and
// bundles again only when a source is newer than the last bundle. Each bundle goes into a folder of its own, named by
// the sources' state, so that processes started at the same time never read a half-written one.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const ENTRY_POINTS = ["codegen/cli.ts", "dev.ts", "codegen/emit/validators-worker.mjs"];
const WORKSPACES = ["twinspec", "twinspec-client"];

/** The newest modification time under `path` (folders count: a deleted file changes its folder's). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * The folder of the bundle of `pkg` (twinspec-dev's checkout), built first when the sources changed; undefined when
 * it cannot be built (no esbuild, or a source that does not compile: the caller then runs the sources through tsx,
 * which names the error).
 */
export async function checkoutBundle(pkg) {
  const packages = dirname(pkg);
  const inputs = [
    join(pkg, "src"),
    join(pkg, "package.json"),
    join(pkg, "bin/checkout.mjs"),
    ...WORKSPACES.flatMap((w) => [join(packages, w, "src"), join(packages, w, "package.json")]),
  ];
  const cache = join(pkg, "node_modules/.cache/twinspec-cli");
  const key = Math.round(Math.max(...inputs.filter((p) => existsSync(p)).map(newest))).toString(36);
  const out = join(cache, key);
  if (existsSync(join(out, "codegen/cli.js"))) return out;
  let esbuild;
  try {
    esbuild = await import(createRequire(join(pkg, "package.json")).resolve("esbuild"));
  } catch {
    return undefined;
  }
  const building = join(cache, `.${key}-${process.pid}`);
  /** The workspaces' own sources are bundled; any other package is left for Node to load from node_modules. */
  const externals = {
    name: "externals",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        WORKSPACES.some((w) => args.path === w || args.path.startsWith(`${w}/`))
          ? undefined
          : { path: args.path, external: true },
      );
      // The workspaces' modules have no side effects at load (nothing of theirs is imported for its effect alone): a
      // module none of whose exports the bundle uses is left out, and with it the libraries it imports (the
      // generator uses a few helpers of twinspec/internals, not the server it also exports).
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData?.inner || !WORKSPACES.some((w) => args.importer.startsWith(join(packages, w, "src"))))
          return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: { inner: true },
        });
        return found.errors.length > 0 ? undefined : { path: found.path, sideEffects: false };
      });
    },
  };
  try {
    await esbuild.build({
      entryPoints: ENTRY_POINTS.map((e) => ({ in: join(pkg, "src", e), out: e.replace(/\.(ts|mjs)$/, "") })),
      outdir: building,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      conditions: ["twinspec-source"],
      plugins: [externals],
      outExtension: { ".js": ".js" },
      // Every chunk beside the CLI: the generator finds its worker and its package from where its code runs.
      chunkNames: "codegen/[name]-[hash]",
      sourcemap: "linked",
      logLevel: "silent",
    });
    renameSync(
      join(building, "codegen/emit/validators-worker.js"),
      join(building, "codegen/emit/validators-worker.mjs"),
    );
    try {
      renameSync(building, out);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process finished the same bundle first
    }
  } catch {
    rmSync(building, { recursive: true, force: true });
    return undefined;
  }
  // Older bundles, left by earlier states of the sources (a day old or more: a long-running `twinspec dev` may
  // still load from one).
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (name !== key && Date.now() - statSync(path).mtimeMs > 86_400_000)
      rmSync(path, { recursive: true, force: true });
  }
  return out;
}

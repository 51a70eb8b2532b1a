// Files of the application read at run time (its specs, its migrations), found from the application's root: the
// nearest folder at or above the working directory with a package.json (npm start, npm test and npm run mock run
// there), or TWINSPEC_ROOT when set.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

const ROOT = process.env.TWINSPEC_ROOT ? resolve(process.env.TWINSPEC_ROOT) : findRoot(process.cwd());

/** A path under the application's root: projectFile("schema.graphql"). */
export const projectFile = (name: string) => join(ROOT, name);

let own: string | undefined;

/** The twinspec package's folder: the nearest above this module whose package.json is twinspec's. */
function ownRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "twinspec")
      return dir;
    // Bundled into an application's own file: the installed package, as the application resolves it.
    if (dirname(dir) === dir) return dirname(createRequire(import.meta.url).resolve("twinspec/package.json"));
  }
}

/**
 * A file of the twinspec package itself (assets/graphiql/…, package.json): found by walking up from this module to
 * the package's package.json (once), so it holds from src/ (a checkout), from the bundle in dist/ and from any chunk
 * of it; from an application's own bundle, it is the twinspec package that application resolves.
 */
export const ownFile = (name: string): string => join((own ??= ownRoot()), name);

// Files of the application read at run time (its specs, its migrations), found from the application's root: the
// nearest folder at or above the working directory with a package.json (npm start, npm test and npm run mock run
// there), or TWINSPEC_ROOT when set.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

const ROOT = process.env.TWINSPEC_ROOT ? resolve(process.env.TWINSPEC_ROOT) : findRoot(process.cwd());

/** A path under the application's root: projectFile("schema.graphql"). */
export const projectFile = (name: string) => join(ROOT, name);

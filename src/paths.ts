// Files of the project read at run time (the specs), found from the project's root whether this code runs from
// src/ (tsx) or compiled from dist/app/src/.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path under the project's root: projectFile("schema.graphql"). */
export const projectFile = (name: string) => join(ROOT, name);

// What one part of a generation produced (the REST side, the GraphQL side, database.ts, the findings on the workflows),
// kept by the hash of everything it was made from: the generator (stamp.ts's generatorHash), the bytes of its input
// files and folders, and its options. A later generate whose inputs for that part did not change takes the result from
// here instead of producing it again (nor loading the libraries that produce it): after a save of schema.graphql, the
// REST side is not regenerated, and the other way round. Kept under the nearest node_modules/.cache (a part whose
// inputs cannot all be named, or a project with no node_modules, is always produced); a few results per part, the
// newest.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { add, generatorHash } from "./stamp.js";

/** Results kept per part: the current one and a few before it (a spec edited back and forth). */
const KEEP = 4;

/** What a part is made from: files and folders (a trailing "/" for a folder) and options; undefined: not all nameable. */
interface PartInputs {
  files: string[];
  options?: unknown;
}

/** node_modules/.cache/`name` of the nearest node_modules at or above the working directory (none: undefined). */
export function cacheDir(name: string): string | undefined {
  for (let dir = resolve("."); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", name);
    if (dirname(dir) === dir) return undefined;
  }
}

/** `produce()`, or what it gave last time for the same inputs; `cached` says which. Results must be JSON. */
export async function cachedPart<T>(
  part: string,
  inputs: PartInputs | undefined,
  produce: () => Promise<T>,
): Promise<{ value: T; cached: boolean }> {
  const dir = inputs && process.env.TWINSPEC_GENERATE_CACHE !== "0" ? cacheDir("twinspec-generate") : undefined;
  if (!dir || !inputs) return { value: await produce(), cached: false };
  const hash = createHash("sha256");
  hash.update(`${part}\n${generatorHash()}\n${JSON.stringify(inputs.options ?? null)}\n`);
  for (const file of inputs.files) add(hash, file, file.replace(/\/$/, ""));
  const path = join(dir, `${part}-${hash.digest("hex").slice(0, 32)}.json`);
  if (existsSync(path)) {
    try {
      return { value: JSON.parse(readFileSync(path, "utf8")) as T, cached: true };
    } catch {
      // unreadable (a disk full when it was written): produced again below
    }
  }
  const value = await produce();
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, path);
    const older = readdirSync(dir)
      .filter((f) => f.startsWith(`${part}-`) && f.endsWith(".json"))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(KEEP);
    for (const { f } of older) rmSync(join(dir, f), { force: true });
  } catch {
    // a cache that cannot be written only costs the next generate its time
  }
  return { value, cached: false };
}

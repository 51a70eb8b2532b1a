// This package's folder (package.json, templates/, src/ in a checkout), found from this module upwards: the sources
// (src/codegen), the compiled dist/codegen and a checkout's bundled CLI (bin/checkout-cli.mjs) sit at different depths.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let found: string | undefined;

/** The folder of twinspec-dev's package.json. */
export function packageRoot(): string {
  if (found) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "twinspec-dev"
    )
      return (found = dir);
    if (dirname(dir) === dir) throw new Error("twinspec-dev's package.json not found above its code");
  }
}

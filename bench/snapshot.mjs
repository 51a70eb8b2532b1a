#!/usr/bin/env node
// npm run bench:snapshot -- <folder>: the current build as a folder bench:duel can start, e.g. .perf/after. It holds
// dist/ (the application) and, under node_modules/twinspec, the twinspec package's package.json, dist/, assets/ and parts/: the
// application's `import "twinspec"` resolves there first, so two snapshots compare the package's code too, not only
// the application's. Everything else resolves from the repository's node_modules. Run `npm run build` first.
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

const folder = process.argv[2];
if (!folder) throw new Error("bench:snapshot: name the folder to write, e.g. .perf/after");
for (const built of ["dist/app/src/main.js", "packages/twinspec/dist/index.js"]) {
  if (!existsSync(built)) throw new Error(`bench:snapshot: ${built} is missing; run npm run build first`);
}
rmSync(folder, { recursive: true, force: true });
cpSync("dist", folder, { recursive: true });
const pkg = path.join(folder, "node_modules", "twinspec");
mkdirSync(pkg, { recursive: true });
cpSync("packages/twinspec/package.json", path.join(pkg, "package.json"));
// The runtime's dist/, its prebuilt docs assets, and the parts the specs may include (x-twinspec-parts), read at start.
for (const part of ["dist", "assets", "parts"]) {
  cpSync(path.join("packages/twinspec", part), path.join(pkg, part), { recursive: true });
}
console.log(`${folder}: dist/ and the twinspec package's dist/, for npm run bench:duel`);

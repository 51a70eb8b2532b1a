// `twinspec start` (npm start): the application's compiled server (dist/app/src/main.js) in this one Node process —
// rebuilt first if a source changed since the last build (npm install builds it once, through prepare). No TypeScript
// loader at run time. A production install (no sources, no compiler) serves the dist/ it was given.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, canBuild, root, stale } from "./build.mjs";

if (stale()) {
  console.error("sources changed since the last build: compiling the server (dist/app)…");
  build();
}
const main = join(root, "dist/app/src/main.js");
if (!canBuild() && !existsSync(main)) {
  console.error(
    "twinspec: dist/app is missing and this install cannot compile it: copy dist/ from a build (npm run build)",
  );
  process.exit(1);
}
await import(pathToFileURL(main).href);

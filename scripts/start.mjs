#!/usr/bin/env node
// npm start: the compiled server in this one Node process — rebuilt first if a source changed since the last build
// (npm install builds it once, through prepare). No TypeScript loader at run time. A production install (no
// sources, no compiler: see the README) serves the dist/ it was given.
import { existsSync } from "node:fs";
import { build, canBuild, stale } from "./build.mjs";

if (stale()) {
  console.error("sources changed since the last build: compiling the server (dist/app)…");
  build();
}
if (!canBuild() && !existsSync(new URL("../dist/app/src/main.js", import.meta.url))) {
  console.error("twinspec: dist/app is missing and this install cannot compile it: copy dist/ from a build (npm run build)");
  process.exit(1);
}
await import("../dist/app/src/main.js");

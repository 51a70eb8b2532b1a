#!/usr/bin/env node
// npm start: the compiled server in this one Node process — rebuilt first if a source changed since the last build
// (npm install builds it once, through prepare). No TypeScript loader at run time.
import { build, stale } from "./build.mjs";

if (stale()) {
  console.error("sources changed since the last build: compiling the server (dist/app)…");
  build();
}
await import("../dist/app/src/main.js");

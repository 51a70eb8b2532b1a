#!/usr/bin/env node
// `twinspec-app start | build [--if-stale] [--prepare]`: what a deployed application runs (npm start; npm install's
// prepare), from the runtime package alone: plain JavaScript, no TypeScript loader, nothing of twinspec-dev.
// `twinspec start` and `twinspec build` (twinspec-dev's command) are these same two.
const [command, ...rest] = process.argv.slice(2);
if (command === "start") {
  await import("./start.mjs");
} else if (command === "build") {
  const { main } = await import("./build.mjs");
  process.exitCode = main(rest);
} else {
  console.error(
    "usage: twinspec-app start | build [--if-stale] [--prepare]\n\n  start   serves the application's compiled dist/app (rebuilt first when a source changed and a compiler is installed)\n  build   compiles the application to dist/app",
  );
  process.exitCode = 2;
}

#!/usr/bin/env node
// The `twinspec` command. `start`, `build` and `client` are plain JavaScript: `twinspec start` serves the application's
// compiled dist/app in this one process, with no TypeScript loader. The other commands (the generator, init, token)
// are TypeScript, so tsx (a runtime dependency) loads them; whatever happens there, the user sees one line, never a
// stack trace (exit code 3 for our own failures).
const [command] = process.argv.slice(2);
if (command === "start") {
  await import("./start.mjs");
} else if (command === "client") {
  await import("./client.mjs");
} else if (command === "build") {
  const { main } = await import("./build.mjs");
  process.exitCode = main(process.argv.slice(3));
} else {
  const { register } = await import("tsx/esm/api");
  const internal = (error) => {
    console.error(`twinspec: internal error: ${String(error?.message ?? error).split("\n")[0]} — please report it`);
    process.exit(3);
  };
  process.on("uncaughtException", internal);
  process.on("unhandledRejection", internal);
  register();
  const { run } = await import("../src/codegen/cli.ts");
  process.exitCode = await run(process.argv.slice(2));
}

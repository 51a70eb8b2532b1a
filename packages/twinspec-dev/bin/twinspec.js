#!/usr/bin/env node
// The `twinspec` command (twinspec-dev, a devDependency): init, generate, token, rest, client, and start/build
// (the runtime's own `twinspec-app start|build`, which a deployed application runs without this package). It runs
// compiled JavaScript, no TypeScript loader: dist/ when installed; in a checkout of Twinspec (src/ beside this folder,
// not an install under node_modules), a bundle of the current sources (checkout.mjs), or the sources through tsx with
// the `twinspec-source` condition when that bundle cannot be made (or TWINSPEC_SOURCES=1 asks for it). Whatever
// fails, the user sees one line, never a stack trace (exit code 3 for our own failures).
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const [command] = args;
const pkg = realpathSync(join(dirname(fileURLToPath(import.meta.url)), ".."));
const checkout = !pkg.split(sep).includes("node_modules") && existsSync(join(pkg, "src"));
/** In a checkout, the folder of the bundled sources. */
let bundle;

if (command === "start" || command === "build") {
  const runtime = dirname(createRequire(import.meta.url).resolve("twinspec/package.json"));
  await import(pathToFileURL(join(runtime, "bin/twinspec-app.js")).href);
} else if (command === "client") {
  await import("./client.mjs");
} else if (
  checkout &&
  !process.env.TWINSPEC_SOURCES &&
  !(bundle = await (await import("./checkout.mjs")).checkoutBundle(pkg))
) {
  const run = spawnSync(
    process.execPath,
    ["--conditions=twinspec-source", "--import", "tsx", fileURLToPath(import.meta.url), ...args],
    {
      stdio: "inherit",
      env: { ...process.env, TWINSPEC_SOURCES: "1" },
    },
  );
  process.exitCode = run.status ?? 3;
} else {
  const internal = (error) => {
    console.error(`twinspec: internal error: ${String(error?.message ?? error).split("\n")[0]} — please report it`);
    process.exit(3);
  };
  process.on("uncaughtException", internal);
  process.on("unhandledRejection", internal);
  const cli = bundle
    ? pathToFileURL(join(bundle, "codegen/cli.js")).href
    : checkout
      ? "../src/codegen/cli.ts"
      : "../dist/codegen/cli.js";
  const { run } = await import(cli);
  process.exitCode = await run(args);
}

#!/usr/bin/env node
// The `twinspec` command. The generator is TypeScript, so tsx (a runtime dependency) loads it. Whatever happens,
// the user sees one line, never a stack trace (exit code 3 for our own failures).
import { register } from "tsx/esm/api";

const internal = (error) => {
  console.error(`twinspec: internal error: ${String(error?.message ?? error).split("\n")[0]} — please report it`);
  process.exit(3);
};
process.on("uncaughtException", internal);
process.on("unhandledRejection", internal);
register();
const { run } = await import("../src/codegen/twinspec-cli.ts");
process.exitCode = await run(process.argv.slice(2));

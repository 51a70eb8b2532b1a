#!/usr/bin/env node
// The `twinspec` command. The generator is TypeScript, so tsx (a runtime dependency) loads it.
import { register } from "tsx/esm/api";

register();
const { run } = await import("../src/codegen/twinspec-cli.ts");
process.exitCode = await run(process.argv.slice(2));

#!/usr/bin/env node
// `create-twinspec <dir> [--openapi FILE --graphql FILE]` (what `npm init twinspec <dir>` runs): `twinspec init`
// from the twinspec-dev bundled in this package, with the tarballs of vendor/ copied into the new application and
// named by its package.json. So this one package is all a new user needs; the application then installs from the
// npm registry and its own vendor/ folder.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const vendor = join(dirname(fileURLToPath(import.meta.url)), "..", "vendor");
const { run } = await import("twinspec-dev/cli");
process.exitCode = await run(["init", ...process.argv.slice(2), "--vendor", vendor]);

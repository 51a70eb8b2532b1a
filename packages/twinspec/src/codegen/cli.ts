// `npm run generate [-- --check] [--out DIR] [--strict]` (twinspec generate): writes generated/ from openapi.yaml,
// schema.graphql and codegen.yml, and stubs for new operations and fields into src/, or (--check) fails naming every
// file that differs from what the specs produce. First the specs must agree with each other; breaking changes since
// git HEAD are listed (fatal with --strict).
import { run } from "./twinspec-cli.js";

run(["generate", ...process.argv.slice(2)])
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });

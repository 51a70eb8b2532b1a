// `npm run generate [-- --check] [--out DIR] [--strict]`: writes generated/ from openapi.yaml, schema.graphql and
// codegen.yml, and stubs for new operations and fields into src/, or (--check) fails naming every file that differs
// from what the specs produce. First the specs must agree with each other; breaking changes since git HEAD are
// listed (fatal with --strict).
import { generateProject } from "./project.js";

const outIndex = process.argv.indexOf("--out");
generateProject({
  check: process.argv.includes("--check"),
  strict: process.argv.includes("--strict"),
  ...(outIndex > 0 ? { outDir: process.argv[outIndex + 1] } : {}),
})
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });

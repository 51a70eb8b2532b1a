// `npm run generate [-- --check] [--out DIR] [--strict]`: writes generated/ from openapi.yaml, schema.graphql and
// codegen.yml, or (--check) fails naming every file that differs from what the specs produce. First the specs
// must agree with each other; breaking changes since git HEAD are listed (fatal with --strict).
import { SpecError } from "./spec.js";
import { OUT, syncGenerated } from "./generate.js";
import { runSpecChecks } from "./spec-checks.js";

async function main() {
  const check = process.argv.includes("--check");
  const outIndex = process.argv.indexOf("--out");
  const outDir = outIndex > 0 ? process.argv[outIndex + 1] : OUT;
  const specChecks = runSpecChecks({ strict: process.argv.includes("--strict") });
  for (const line of specChecks.info) console.log(line);
  for (const block of specChecks.problems) console.error(block);
  if (specChecks.failed) process.exit(1);
  const started = performance.now();
  const { stale, total } = await syncGenerated({ check, outDir });
  const ms = Math.round(performance.now() - started);
  if (check && stale.length > 0) {
    console.error(`${outDir}/ is stale; run \`npm run generate\` and commit the result:\n  ${stale.join("\n  ")}`);
    process.exit(1);
  }
  console.log(check ? `${outDir}/ is up to date (${total} files, ${ms} ms)` : `wrote ${stale.length} of ${total} files in ${ms} ms`);
}

main().catch((error) => {
  console.error(error instanceof SpecError ? `invalid spec: ${error.message}` : error);
  process.exit(1);
});

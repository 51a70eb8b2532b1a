// `npm run generate` for this project, as a function (the CLI and `npm run dev` both run it): check the specs, add
// stubs for what is new to the hand-written files, then write generated/ (or, with check, only report what differs).
import { SpecError } from "./load/spec.js";
import { OUT, syncGenerated } from "./generate-app.js";
import { runSpecChecks } from "./check/spec-checks.js";
import { stubFiles, syncStubs } from "./emit/stubs.js";
import { writeStamp } from "./stamp.js";

export interface ProjectOptions {
  check?: boolean;
  outDir?: string;
  strict?: boolean;
  log?: (line: string) => void;
  error?: (line: string) => void;
}

/** true when everything is in order (written, or with check: up to date). */
export async function generateProject({ check = false, outDir = OUT, strict = false, log = console.log, error = console.error }: ProjectOptions = {}): Promise<boolean> {
  let specChecks;
  try {
    specChecks = runSpecChecks({ strict });
  } catch (e) {
    if (e instanceof SpecError) {
      error(`invalid spec: ${e.message}`);
      return false;
    }
    throw e;
  }
  for (const line of specChecks.info) log(line);
  for (const block of specChecks.problems) error(block);
  if (specChecks.failed) return false;

  const stubs = syncStubs(specChecks.contract, specChecks.document, { check });
  for (const change of stubs) {
    const why = (change.needs ?? []).map((n) => `${n.method} (${n.why})`).join(", ");
    if (change.manual) {
      log(`${change.file}: generated/wiring.ts asks its service for ${why}; its createService returns no class of its own to add stubs to (it extends another, or is built otherwise): make sure the service has them`);
      continue;
    }
    const what = `${change.created ? "new file" : "stubs"}: ${change.added.join(", ")}`;
    if (check) error(`${change.file} lacks ${what}; run \`npm run generate\` to add them`);
    else log(`wrote ${change.file} (${what}); fill in the stubs`);
    // A module already written whose service the specs now ask more of: say which methods, and what asks for each.
    if (!change.created && change.needs) log(`${change.file}: its service now needs ${why}`);
  }
  const started = performance.now();
  const { stale, total } = await syncGenerated(specChecks.contract, specChecks.document, { check, outDir });
  const ms = Math.round(performance.now() - started);
  if (check && stale.length > 0) {
    error(`${outDir}/ is stale; run \`npm run generate\` and commit the result:\n  ${stale.join("\n  ")}`);
    return false;
  }
  log(check ? `${outDir}/ is up to date (${total} files, ${ms} ms)` : `wrote ${stale.length} of ${total} files in ${ms} ms`);
  if (check) return !stubs.some((c) => !c.manual);
  // Last, once everything is written: what it was made from, so the next --check on the same project is instant.
  const unstamped = await writeStamp(outDir, stubFiles(specChecks.contract), specChecks.document);
  if (unstamped) log(unstamped);
  return true;
}

// `npm run generate` for this project, as a function (the CLI and `npm run dev` both run it): check the specs, add
// stubs for what is new to the hand-written files, then write generated/ (or, with check, only report what differs).
import { SpecError } from "./load/spec.js";
import { OUT, syncGenerated } from "./generate-app.js";
import { runSpecChecks } from "./check/spec-checks.js";
import { checkWorkflows, formatWorkflowProblem, WORKFLOWS, type WorkflowReport } from "./check/workflows.js";
import { cachedPart } from "./part-cache.js";
import { stubFiles, syncStubs } from "./emit/stubs.js";
import { externalRef, writeStamp } from "./stamp.js";
import { seconds, Timings } from "./timings.js";

export interface ProjectOptions {
  check?: boolean;
  outDir?: string;
  strict?: boolean;
  /** compare with the specs at git HEAD for breaking changes (default true) */
  head?: boolean;
  /** every passed check and each part's duration, not only the summary */
  verbose?: boolean;
  log?: (line: string) => void;
  error?: (line: string) => void;
}

/** true when everything is in order (written, or with check: up to date). */
export async function generateProject({
  check = false,
  outDir = OUT,
  strict = false,
  head = true,
  verbose = false,
  log = console.log,
  error = console.error,
}: ProjectOptions = {}): Promise<boolean> {
  const timings = new Timings();
  let specChecks;
  try {
    specChecks = await timings.time("spec checks (agreement, contract, scopes, breaking changes)", () =>
      runSpecChecks({ strict, head }),
    );
  } catch (e) {
    if (e instanceof SpecError) {
      error(`invalid spec: ${e.message}`);
      return false;
    }
    throw e;
  }
  // What passed is said with --verbose, or when something failed (then it tells what did not); notes always.
  if (verbose || specChecks.failed) for (const line of specChecks.info) log(line);
  for (const line of specChecks.notes) log(line);
  for (const block of specChecks.problems) error(block);
  if (specChecks.failed) return false;
  // The business flows the test kit runs (optional): they may name only what the specs declare.
  const workflows = await timings.time(`${WORKFLOWS}: Redocly's Arazzo lint, then against openapi.yaml`, () =>
    cachedPart(
      "workflows",
      externalRef(specChecks.document) ? undefined : { files: [WORKFLOWS, "openapi.yaml"] },
      async () => (await checkWorkflows(WORKFLOWS, specChecks.operations, specChecks.document)) ?? null,
    ),
  );
  if (workflows.value && !workflowsReported(workflows.value, { verbose, log, error })) return false;

  const stubs = await timings.time("stubs", () => syncStubs(specChecks.contract, specChecks.document, { check }));
  for (const change of stubs) {
    const why = (change.needs ?? []).map((n) => `${n.method} (${n.why})`).join(", ");
    if (change.manual) {
      log(
        `${change.file}: generated/wiring.ts asks its service for ${why}; its createService returns no class of its own to add stubs to (it extends another, or is built otherwise): make sure the service has them`,
      );
      continue;
    }
    const what = `${change.created ? "new file" : "stubs"}: ${change.added.join(", ")}`;
    if (check) error(`${change.file} lacks ${what}; run \`npm run generate\` to add them`);
    else log(`wrote ${change.file} (${what}); fill in the stubs`);
    // A module already written whose service the specs now ask more of: say which methods, and what asks for each.
    if (!change.created && change.needs) log(`${change.file}: its service now needs ${why}`);
  }
  const { stale, total, cached } = await syncGenerated(
    specChecks.contract,
    specChecks.document,
    specChecks.schema,
    specChecks.sdl,
    {
      check,
      outDir,
      timings,
    },
  );
  if (check && stale.length > 0) {
    error(`${outDir}/ is stale; run \`npm run generate\` and commit the result:\n  ${stale.join("\n  ")}`);
    return false;
  }
  if (!check) {
    // Last, once everything is written: what it was made from, so the next --check on the same project is instant.
    const unstamped = await timings.time("stamp", () =>
      writeStamp(outDir, stubFiles(specChecks.contract), specChecks.document),
    );
    if (unstamped) log(unstamped);
  }
  log(summary({ check, outDir, stale, total, ms: timings.total(), verbose }));
  if (verbose) for (const line of timings.lines()) log(line);
  if (verbose && cached.length > 0)
    log(`  unchanged inputs, taken from node_modules/.cache/twinspec-generate: ${cached.join(", ")}`);
  return check ? !stubs.some((c) => !c.manual) : true;
}

/** Prints what the check of the workflows found; false when it found errors. */
function workflowsReported(
  report: WorkflowReport,
  { verbose, log, error }: { verbose: boolean; log: (line: string) => void; error: (line: string) => void },
): boolean {
  const errors = report.problems.filter((p) => p.severity === "error");
  for (const p of report.problems.filter((w) => w.severity === "warn")) error(formatWorkflowProblem(WORKFLOWS, p));
  if (errors.length) {
    error(
      [
        `${WORKFLOWS} does not agree with the specs (${errors.length}):`,
        ...errors.map((p) => `  ${formatWorkflowProblem(WORKFLOWS, p)}`),
      ].join("\n"),
    );
    return false;
  }
  if (verbose)
    log(`${WORKFLOWS}: ${report.workflows} workflows, ${report.steps} steps, all naming what openapi.yaml declares`);
  return true;
}

/** The one line generate ends with: what it wrote (or found up to date) and in how long. */
function summary({
  check,
  outDir,
  stale,
  total,
  ms,
  verbose,
}: {
  check: boolean;
  outDir: string;
  stale: string[];
  total: number;
  ms: number;
  verbose: boolean;
}): string {
  if (check) return `${outDir}/ is up to date (${total} files, ${Math.round(ms)} ms)`;
  const named = stale.map((s) => s.replace(/ \(.*\)$/, ""));
  const what =
    named.length === 0
      ? "nothing changed"
      : named.length <= 3
        ? named.join(", ")
        : `${named.slice(0, 2).join(", ")} and ${named.length - 2} more`;
  return `wrote ${stale.length} of ${total} files (${what}) in ${seconds(ms)}${ms >= 1000 && !verbose ? "; --verbose for each part" : ""}`;
}

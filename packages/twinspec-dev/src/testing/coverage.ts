// Per-(operation, status) coverage: every test server of the kit records which (operation, status) pairs it
// answered, and to what: a step that asked for that status (a status walk, a scenario, the application's own tests),
// a fuzzer's or a walk's luck, or the framework's own refusal standing in for the application's answer.
// statusCoverageGate, registered after the tests that run servers, fails unless every pair the application's
// openapi.yaml declares was produced on purpose, and names what produced the pairs that were not.
import type { Middleware } from "koa";
import { describe } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import { PROBLEMS, projectFile } from "twinspec/internals";
import { existsSync } from "node:fs";
import { isObject, type JsonObject } from "../codegen/load/spec.js";
import { loadWithParts } from "../codegen/load/parts.js";
import { it, stubsMet } from "./pending.js";

/** The request header a step of the kit names itself with ("status walk: getBook: an unknown bookId → 404"). */
export const STEP_HEADER = "x-twinspec-step";
/**
 * The request header a step sends with the statuses it asks for, space-separated ("404", "200 201"), or `any` when it
 * takes whatever the operation declares (a fuzzer, the API walk): such answers are luck and count for nothing.
 */
export const EXPECT_HEADER = "x-twinspec-expect";

/** What produced an answer: a step that asked for its status, luck, a step that asked for another, or the framework. */
type Production = "asked" | "luck" | "unasked" | "framework";

// On globalThis: mocha may load a spec file through require() and another through import(), which would give
// each its own copy of this module.
const shared = globalThis as {
  __twinspecAnswered?: Map<string, Set<number>>;
  __twinspecProducers?: Map<string, Map<number, Map<Production, Set<string>>>>;
};
/** operationId → every status test servers answered for it, however produced */
export const answered = (shared.__twinspecAnswered ??= new Map<string, Set<number>>());
/** operationId → status → how it was produced → the steps that produced it (the first few) */
const producers = (shared.__twinspecProducers ??= new Map());

/**
 * The headers a step sends to ask for one of `statuses`.
 *
 * @param step - what the step is, as the gate names it ("status walk: getBook: an unknown bookId")
 * @param statuses - the statuses it asks for; "any": whatever the operation declares, which is luck and counts for nothing
 */
export const asking = (step: string, statuses: readonly number[] | "any"): Record<string, string> => ({
  [STEP_HEADER]: step.replace(/[^\x20-\x7e]/g, "?").slice(0, 200),
  [EXPECT_HEADER]: statuses === "any" ? "any" : statuses.join(" "),
});

/** The Idempotency-Key in-flight 409: the framework's, whatever the operation's own 409 means. */
function isFrameworkStandIn(status: number, body: unknown): boolean {
  if (status !== PROBLEMS.in_progress.status) return false;
  let problem = body;
  // The REST layer has serialized it by the time this middleware sees it.
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    try {
      problem = JSON.parse(String(body));
    } catch {
      return false;
    }
  }
  const { type, title } = (problem ?? {}) as { type?: string; title?: string };
  return type === PROBLEMS.in_progress.type && title === PROBLEMS.in_progress.title;
}

function productionOf(status: number, expect: string, body: unknown): Production {
  if (expect === "any") return "luck";
  if (expect && !expect.split(/\s+/).includes(String(status))) return "unasked";
  return isFrameworkStandIn(status, body) ? "framework" : "asked";
}

/**
 * The Koa middleware that records, into `answered`, the status each operation was answered with, and what produced
 * it (the `x-twinspec-step` / `x-twinspec-expect` headers the kit's steps send; none: a test of the application, which
 * asked): every test server of the kit runs it (`App.around`); a server of the application's own tests adds it for
 * its answers to count.
 *
 * @param ctx - the request's Koa context
 * @param next - the rest of the pipeline
 */
export const recordStatuses: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    const op = ctx.state.operationId as string | undefined;
    if (op) {
      const seen = answered.get(op) ?? new Set<number>();
      seen.add(ctx.status);
      answered.set(op, seen);
      const how = productionOf(ctx.status, ctx.get(EXPECT_HEADER).trim(), ctx.body);
      const byStatus = producers.get(op) ?? new Map<number, Map<Production, Set<string>>>();
      const byHow = byStatus.get(ctx.status) ?? new Map<Production, Set<string>>();
      const steps = byHow.get(how) ?? new Set<string>();
      if (steps.size < 3) steps.add(ctx.get(STEP_HEADER) || "a test of the application");
      byHow.set(how, steps);
      byStatus.set(ctx.status, byHow);
      producers.set(op, byStatus);
    }
  }
};

/**
 * Answered by the HTTP layer to a request for any operation's URL, before the operation is chosen (slow headers or
 * body, a URL or headers too large), so no test server can tell which operation it was for: not counted by default.
 */
export const BEFORE_ROUTING = ["408", "414", "431"] as const;

/** What statusCoverageGate leaves out. */
export interface CoverageOptions {
  /** statuses not counted (default BEFORE_ROUTING) */
  exempt?: readonly string[];
}

/**
 * For each (operationId, status), whether openapi.yaml declares it as the Idempotency-Key in-flight answer (its
 * response's $ref or description speaks of idempotency): the framework's 409 is then what it declares.
 */
function inFlightDeclared(): (op: { path: string; method: string }, status: string) => boolean {
  const file = projectFile("openapi.yaml");
  if (!existsSync(file)) return () => false;
  const doc = loadWithParts(file);
  return (op, status) => {
    const item = (doc.paths as JsonObject | undefined)?.[op.path];
    const operation = isObject(item) ? item[op.method.toLowerCase()] : undefined;
    const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
    const declared = responses[status];
    if (!isObject(declared)) return false;
    const ref = typeof declared.$ref === "string" ? declared.$ref : "";
    const target = ref.startsWith("#/")
      ? ref
          .slice(2)
          .split("/")
          .reduce<unknown>((n, key) => (isObject(n) ? n[key] : undefined), doc)
      : declared;
    return /idempot/i.test(
      `${ref} ${isObject(target) && typeof target.description === "string" ? target.description : ""}`,
    );
  };
}

/**
 * Why (operation, status) is not covered, or undefined when a step asked for it and got it (the framework's
 * in-flight 409 counts only for a 409 declared as that one).
 */
function uncovered(op: string, status: number, frameworkCounts: boolean): string | undefined {
  const byHow = producers.get(op)?.get(status);
  if (byHow?.has("asked") || (frameworkCounts && byHow?.has("framework"))) return undefined;
  const named = (how: Production, what: string) =>
    byHow?.has(how) ? [`${what} (${[...byHow.get(how)!].join("; ")})`] : [];
  const others = [
    ...named("framework", "only the framework's Idempotency-Key in-flight 409, not the application's own"),
    ...named("luck", "only by luck"),
    ...named("unasked", "only by a step that asked for another status"),
  ];
  return `${op} ${status}: ${others.length ? `produced ${others.join(", ")}` : "produced by no test"}; no step asked for it`;
}

/** What `coverageOf` finds: how many declared (operation, status) pairs there are, and why each one left is. */
export interface Coverage {
  /** the declared (operation, status) pairs counted */
  total: number;
  /** one line per pair not produced on purpose: the pair, then what produced it, if anything did */
  missing: string[];
  /** what answered as a stub (501 / NOT_IMPLEMENTED) so far: while any is left, the gate waits */
  stubs: string[];
}

/**
 * The coverage so far: every (operation, status) pair the application's openapi.yaml declares, and those no step
 * asked for and got — a fuzzer's or a walk's luck does not count, nor the framework's Idempotency-Key in-flight 409
 * for an operation whose 409 is the application's own.
 *
 * @param definition - the application (its `operationSpecs`)
 * @param options - the statuses not counted (`CoverageOptions`); default BEFORE_ROUTING
 */
export function coverageOf(definition: Pick<AppDefinition, "operationSpecs">, options: CoverageOptions = {}): Coverage {
  const exempt = new Set<string>(options.exempt ?? BEFORE_ROUTING);
  const inFlight = inFlightDeclared();
  const missing: string[] = [];
  let total = 0;
  for (const op of definition.operationSpecs) {
    for (const status of Object.keys(op.responses).filter((s) => /^\d{3}$/.test(s) && !exempt.has(s))) {
      total++;
      const why = uncovered(op.operationId, Number(status), inFlight(op, status));
      if (why) missing.push(why);
    }
  }
  const stubbed = [...answered.entries()].filter(([, statuses]) => statuses.has(501)).map(([op]) => op);
  return { total, missing, stubs: [...new Set([...stubbed, ...stubsMet])] };
}

/**
 * Registers a test (run it after every test that starts servers: last in file order, or last in the file) that
 * prints the coverage and fails unless every declared (operation, status) pair was produced by a step that asked for
 * it (`coverageOf`); the failure names what produced each pair left. While stubs are left it is pending.
 *
 * @param definition - the application (its `operationSpecs`)
 * @param options - the statuses not counted (`CoverageOptions`); default BEFORE_ROUTING
 */
export function statusCoverageGate(
  definition: Pick<AppDefinition, "operationSpecs">,
  options: CoverageOptions = {},
): void {
  describe("per-status coverage of openapi.yaml", () => {
    it("every declared (operation, status) pair was produced by a step that asked for it", function () {
      const { total, missing, stubs } = coverageOf(definition, options);
      const covered = total - missing.length;
      console.log(
        `      (operation, status) coverage: ${covered}/${total} = ${total ? ((100 * covered) / total).toFixed(1) : "100.0"}%`,
      );
      // While stubs are left, what they would answer cannot be produced: the gate waits until none is.
      if (stubs.length) {
        console.log(`      the gate applies once nothing is a stub; not yet implemented: ${stubs.join(", ")}`);
        this.skip();
      }
      if (missing.length) {
        throw new Error(
          `not produced on purpose (${missing.length}; ask for each in a scenario of workflows.arazzo.yaml or a test of the application):\n${missing.join("\n")}`,
        );
      }
    });
  });
}

// Per-(operation, status) coverage: every test server of the kit records which (operation, status) pairs it
// answered; statusCoverageGate, registered after the tests that run servers, fails unless every pair the
// application's openapi.yaml declares was produced by some test.
import assert from "node:assert/strict";
import type { Middleware } from "koa";
import { describe, it } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import { stubsMet } from "./pending.js";

// On globalThis: mocha may load a spec file through require() and another through import(), which would give
// each its own copy of this module.
const shared = globalThis as { __twinspecAnswered?: Map<string, Set<number>> };
/** operationId → the statuses test servers answered for it */
export const answered = (shared.__twinspecAnswered ??= new Map<string, Set<number>>());

/**
 * The Koa middleware that records, into `answered`, the status each operation was answered with: every test server
 * of the kit runs it (`App.around`); a server of the application's own tests adds it for its answers to count.
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
 * Registers a test (run it after every test that starts servers: last in file order, or last in the file) that
 * prints the coverage and fails unless every declared (operation, status) pair was produced by a test.
 *
 * @param definition - the application (its `operationSpecs`)
 * @param options - the statuses not counted (`CoverageOptions`); default BEFORE_ROUTING
 */
export function statusCoverageGate(definition: Pick<AppDefinition, "operationSpecs">, options: CoverageOptions = {}): void {
  const exempt = new Set<string>(options.exempt ?? BEFORE_ROUTING);
  describe("per-status coverage of openapi.yaml", () => {
    it("every declared (operation, status) pair was produced by a test", function () {
      const missing: string[] = [];
      let total = 0;
      for (const op of definition.operationSpecs) {
        for (const status of Object.keys(op.responses).filter((s) => /^\d{3}$/.test(s) && !exempt.has(s))) {
          total++;
          if (!answered.get(op.operationId)?.has(Number(status))) missing.push(`${op.operationId} ${status}`);
        }
      }
      const covered = total - missing.length;
      console.log(`      (operation, status) coverage: ${covered}/${total} = ${total ? ((100 * covered) / total).toFixed(1) : "100.0"}%`);
      // While stubs are left, what they would answer cannot be produced: the gate waits until none is.
      const stubbed = [...answered.entries()].filter(([, statuses]) => statuses.has(501)).map(([op]) => op);
      if (stubbed.length || stubsMet.size) {
        console.log(`      the gate applies once nothing is a stub; not yet implemented: ${[...new Set([...stubbed, ...stubsMet])].join(", ")}`);
        this.skip();
      }
      assert.deepEqual(missing, [], `not produced by any test:\n${missing.join("\n")}`);
    });
  });
}

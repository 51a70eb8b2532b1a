// Stubs are pending, not failures: a test of the kit that reaches a handler or resolver still answering 501 /
// NOT_IMPLEMENTED (what `twinspec generate` writes) is reported as pending, and the operation as not yet implemented.
// The kit's suites register their tests and hooks through `it` and `before` from here.
import { after as mochaAfter, before as mochaBefore, it as mochaIt, type Context } from "mocha";
import { PROBLEMS } from "twinspec/internals";
import { lastExchange } from "./exchange.js";

export class NotYetImplemented extends Error {
  override name = "NotYetImplemented";
}

// On globalThis: a spec file may load this module through require() and another through import().
const shared = globalThis as { __twinspecStubs?: Set<string> };
/** what answered 501 / NOT_IMPLEMENTED in some test (an operationId, a coordinate, or the server's detail) */
export const stubsMet = (shared.__twinspecStubs ??= new Set<string>());

const isStub = (error: unknown) => (error as Error | undefined)?.name === "NotYetImplemented";

/**
 * Whether an answer is a stub's: 501 with the problem a handler still throwing NotImplementedError answers, or the
 * one for an operation with no handler at all.
 *
 * @param status - the answer's status
 * @param text - its body
 */
export function isStubAnswer(status: number, text: string): boolean {
  if (status !== PROBLEMS.not_implemented.status) return false;
  try {
    const type = (JSON.parse(text) as { type?: string } | null)?.type;
    return type === PROBLEMS.not_implemented.type || type === PROBLEMS.unimplemented.type;
  } catch {
    return false;
  }
}

/**
 * A failure as the kit reports it: the message names the operation, the step, the request and the seed, so the
 * stack — frames inside the kit — is left out, its causes' too (mocha prints a stack that is the message alone as the
 * message); an assertion's expected and actual values stay. A message that does not show the last request the test
 * sent gets it.
 */
function withoutKitStack(error: unknown, exchange: string | undefined): unknown {
  if (!(error instanceof Error) || error.name === "PendingError") return error;
  const request = exchange?.split(" → ")[0];
  if (exchange && request && !error.message.includes(request.split(" ").slice(0, 2).join(" ")))
    error.message = `${error.message}\n  the last request: ${exchange}`;
  // Its causes too: mocha prints each one's stack after it ("Caused by: …").
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    e.stack = `${e.name}: ${e.message}`;
  }
  return error;
}

function guarded(fn: (this: Context) => unknown) {
  return async function (this: Context) {
    lastExchange.line = undefined;
    try {
      return await fn.call(this);
    } catch (error) {
      if (!isStub(error)) throw withoutKitStack(error, lastExchange.line);
      stubsMet.add((error as Error).message);
      this.skip();
    }
  };
}

/** mocha's `it`, whose failures are stack-free and show their request, and whose stubs are pending. */
export const it = (title: string, fn: (this: Context) => unknown) => mochaIt(title, guarded(fn));
/** mocha's `before`, as `it`. */
export const before = (fn: (this: Context) => unknown) => mochaBefore(guarded(fn));
/** mocha's `after`, as `it`. */
export const after = (fn: (this: Context) => unknown) => mochaAfter(guarded(fn));

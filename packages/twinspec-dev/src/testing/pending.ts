// Stubs are pending, not failures: a test of the kit that reaches a handler or resolver still answering 501 /
// NOT_IMPLEMENTED (what `twinspec generate` writes) is reported as pending, and the operation as not yet implemented.
// The kit's suites register their tests and hooks through `it` and `before` from here.
import { before as mochaBefore, it as mochaIt, type Context } from "mocha";
import { PROBLEMS } from "twinspec/internals";

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
 * stack — frames inside the kit — is left out; an assertion's expected and actual values stay.
 */
function withoutKitStack(error: unknown): unknown {
  if (error instanceof Error) error.stack = `${error.name}: ${error.message}`;
  return error;
}

function guarded(fn: (this: Context) => unknown) {
  return async function (this: Context) {
    try {
      return await fn.call(this);
    } catch (error) {
      if (!isStub(error)) throw withoutKitStack(error);
      stubsMet.add((error as Error).message);
      this.skip();
    }
  };
}

export const it = (title: string, fn: (this: Context) => unknown) => mochaIt(title, guarded(fn));
export const before = (fn: (this: Context) => unknown) => mochaBefore(guarded(fn));

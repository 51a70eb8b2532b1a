// The input rules a root field shares with its paired REST operation (generated/contract.ts graphqlInputs): its
// id arguments are checked like the path parameters, its input like the request body, by the same generated
// validators, with the same JSON pointers. A spec's constraint is never written twice.
import type { InputRules } from "../definition.js";
import { fieldErrors, type Validator } from "../runtime/validation.js";
import { ArgumentError, type ArgumentProblem } from "./errors.js";

const NONE: ArgumentProblem[] = [];

/** The same messages and pointers a REST client gets (fieldErrors), placed in arguments. */
function problems(
  validate: Validator,
  value: unknown,
  argumentOf: (pointer: string) => { argument: string; pointer: string },
): ArgumentProblem[] {
  if (validate(value)) return NONE;
  return fieldErrors("body", validate.errors).map((e) => ({ ...argumentOf(e.pointer), message: e.message }));
}

const firstSegment = (pointer: string) => {
  const [, first = "", ...rest] = pointer.split("/");
  return { argument: first, pointer: rest.length ? `/${rest.join("/")}` : "" };
};

/** The arguments named in `names` that were given (what the paired operation's path or body would hold). */
function given(args: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (args[name] !== undefined) picked[name] = args[name];
  return picked;
}

/** Throws the BAD_USER_INPUT error naming every invalid argument of `coordinate` ("Mutation.placeOrder"). */
export function checkArguments(rules: InputRules, args: Record<string, unknown>): void {
  // Runs before every root field: nothing allocated beyond what the validators read, unless something is wrong.
  let found: ArgumentProblem[] | undefined;
  if (rules.path) {
    const invalid = problems(rules.path.validate, given(args, rules.path.args), firstSegment);
    if (invalid.length) found = invalid;
  }
  if (rules.body) {
    let invalid: ArgumentProblem[] | undefined;
    if ("arg" in rules.body) {
      const arg = rules.body.arg;
      if (args[arg] !== undefined)
        invalid = problems(rules.body.validate, args[arg], (pointer) => ({ argument: arg, pointer }));
    } else {
      invalid = problems(rules.body.validate, given(args, rules.body.args), firstSegment);
    }
    if (invalid?.length) found = found ? [...found, ...invalid] : invalid;
  }
  if (found) throw new ArgumentError(found);
}

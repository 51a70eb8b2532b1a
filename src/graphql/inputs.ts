// The input rules a root field shares with its paired REST operation (generated/contract.ts graphqlInputs): its
// id arguments are checked like the path parameters, its input like the request body, by the same generated
// validators, with the same JSON pointers. A spec's constraint is never written twice.
import { graphqlInputs, type InputRules } from "../../generated/contract.js";
import { fieldErrors, type Validator } from "../http/validation.js";
import { ArgumentError, type ArgumentProblem } from "./errors.js";

/** The same messages and pointers a REST client gets (fieldErrors), placed in arguments. */
function problems(validate: Validator, value: unknown, argumentOf: (pointer: string) => { argument: string; pointer: string }): ArgumentProblem[] {
  if (validate(value)) return [];
  return fieldErrors("body", validate.errors).map((e) => ({ ...argumentOf(e.pointer), message: e.message }));
}

const firstSegment = (pointer: string) => {
  const [, first = "", ...rest] = pointer.split("/");
  return { argument: first, pointer: rest.length ? `/${rest.join("/")}` : "" };
};

/** Throws the BAD_USER_INPUT error naming every invalid argument of `coordinate` ("Mutation.placeOrder"). */
export function checkArguments(rules: InputRules, args: Record<string, unknown>): void {
  const found: ArgumentProblem[] = [];
  if (rules.path) {
    const ids = Object.fromEntries(rules.path.args.filter((a) => args[a] !== undefined).map((a) => [a, args[a]]));
    found.push(...problems(rules.path.validate, ids, firstSegment));
  }
  if (rules.body) {
    if ("arg" in rules.body) {
      const arg = rules.body.arg;
      if (args[arg] !== undefined) found.push(...problems(rules.body.validate, args[arg], (pointer) => ({ argument: arg, pointer })));
    } else {
      const body = Object.fromEntries(rules.body.args.filter((a) => args[a] !== undefined).map((a) => [a, args[a]]));
      found.push(...problems(rules.body.validate, body, firstSegment));
    }
  }
  if (found.length) throw new ArgumentError(found);
}

export const inputRules = (coordinate: string): InputRules | undefined => graphqlInputs[coordinate];

// ajv's errors → one FieldError per bad input, pointing at the field itself.
import type { FieldError } from "./problem.js";

export interface ValidatorError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
/**
 * A compiled JSON Schema validator (ajv's, as generated/validators.cjs holds them): returns whether `data` is valid,
 * and leaves what is wrong in `errors` when not.
 *
 * @param data - the value to check
 */
export type Validator = ((data: unknown) => boolean) & {
  /** what was wrong with the last value checked (ajv's errors); null or absent when it was valid */
  errors?: ValidatorError[] | null;
};

const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export function fieldErrors(where: FieldError["in"], errors: ValidatorError[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    // Schema combinators repeat their branches' errors; the branch errors already say what is wrong.
    if (e.keyword === "if" || e.keyword === "anyOf" || e.keyword === "oneOf") continue;
    let pointer = e.instancePath;
    let message = e.message ?? "is invalid";
    if (e.keyword === "required") {
      pointer += `/${escape(String(e.params.missingProperty))}`;
      message = "is required";
    } else if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") {
      pointer += `/${escape(String(e.params.additionalProperty ?? e.params.unevaluatedProperty))}`;
      message = "is not a known field";
    } else if (e.keyword === "enum") {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    }
    if (!out.some((o) => o.pointer === pointer && o.message === message)) out.push({ in: where, pointer, message });
  }
  // Only combinator errors (e.g. a body matching two oneOf branches): report them rather than nothing.
  if (out.length === 0 && errors?.length) {
    for (const e of errors) out.push({ in: where, pointer: e.instancePath, message: e.message ?? "is invalid" });
  }
  return out;
}

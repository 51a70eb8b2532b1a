// Response validation (development and test): does what a handler returned match what the spec declares for the
// operation — a declared status, the body's schema for its media type, the required headers?
import type { FieldError } from "./problem.js";
import { fieldErrors, type Validator } from "./validation.js";

export interface DeclaredResponse {
  contentTypes: string[];
  headers: { name: string; required: boolean }[];
  /** by content type; absent for media types whose bodies are not checked */
  validate?: Record<string, Validator>;
}

/** The declaration a status falls under: exact, then its range (2XX), then default. */
export function declaredFor<T>(responses: Record<string, T>, status: number): T | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

export interface ResponseMismatch {
  detail: string;
  errors: FieldError[];
}

export function checkResponse(
  responses: Record<string, DeclaredResponse>,
  response: { status: number; body?: unknown; headers?: Record<string, string> },
  contentType: string | undefined,
): ResponseMismatch | undefined {
  const declared = declaredFor(responses, response.status);
  if (!declared)
    return {
      detail: `status ${response.status} is not declared (declared: ${Object.keys(responses).join(", ")})`,
      errors: [],
    };
  const errors: FieldError[] = [];
  const given = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
  for (const h of declared.headers) {
    if (h.required && !given.has(h.name.toLowerCase()))
      errors.push({ in: "header", pointer: `/${h.name}`, message: "is required" });
  }
  if (response.body === undefined) {
    if (declared.contentTypes.length > 0)
      errors.push({ in: "body", pointer: "", message: `a body (${declared.contentTypes.join(" or ")}) is declared` });
  } else if (declared.contentTypes.length === 0) {
    errors.push({ in: "body", pointer: "", message: "no body is declared" });
  } else if (contentType && !declared.contentTypes.includes(contentType)) {
    errors.push({
      in: "body",
      pointer: "",
      message: `content type ${contentType} is not declared (${declared.contentTypes.join(", ")})`,
    });
  } else {
    const validate = declared.validate?.[contentType ?? declared.contentTypes[0]];
    if (validate && !validate(response.body)) errors.push(...fieldErrors("body", validate.errors));
  }
  if (errors.length === 0) return undefined;
  return { detail: errors.map((e) => `${e.in}${e.pointer} ${e.message}`).join("; "), errors };
}

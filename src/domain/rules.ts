// Field rules shared by every input of the domain, whichever transport it came through.
import type { InputError } from "./errors.js";

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export type Check = (value: unknown) => string | undefined;

export const name: Check = (v) =>
  typeof v !== "string" ? "must be a string" : v.trim().length === 0 ? "must not be empty" : v.length > 100 ? "must be at most 100 characters" : undefined;

export const email: Check = (v) =>
  typeof v !== "string" ? "must be a string" : v.length > 254 || !EMAIL.test(v) ? "must be an email address" : undefined;

export const id: Check = (v) => (typeof v === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(v) ? undefined : "must be an id of 1-64 letters, digits, _ or -");

/** Applies `checks` to the fields of `input` that are present (or required); returns every failure. */
export function checkFields(input: Record<string, unknown>, checks: Record<string, Check>, required: string[], prefix = ""): InputError[] {
  const errors: InputError[] = [];
  for (const [field, check] of Object.entries(checks)) {
    const value = input[field];
    if (value === undefined) {
      if (required.includes(field)) errors.push({ pointer: `${prefix}/${field}`, message: "is required" });
      continue;
    }
    const message = check(value);
    if (message) errors.push({ pointer: `${prefix}/${field}`, message });
  }
  for (const field of Object.keys(input)) {
    if (!(field in checks)) errors.push({ pointer: `${prefix}/${field}`, message: "is not a known field" });
  }
  return errors;
}

// Shared helpers for the codegen unit tests: tiny in-memory OpenAPI documents and compiled validators.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Warnings, type Warning } from "../../src/codegen/load/diagnostics.js";
import { SpecError, type JsonObject } from "../../src/codegen/load/spec.js";
import type { Validator } from "../../../twinspec/src/runtime/validation.js";

export const FILE = "test.yaml";

export const OK: JsonObject = { "200": { description: "ok" } };

/** A minimal OpenAPI document around `paths`; `extra` adds components, security, ... */
export function openapi(paths: JsonObject, extra: JsonObject = {}, version = "3.1.0"): JsonObject {
  return { openapi: version, info: { title: "test", version: "1" }, paths, ...extra };
}

/** Loads the CommonJS source emitted by compileValidators, as the server would require it. */
export function loadValidators(source: string): Record<string, Validator> {
  const exports: Record<string, Validator> = {};
  new Function("require", "exports", source)(createRequire(import.meta.url), exports);
  return exports;
}

export function throwsSpecError(fn: () => unknown, pointer: string, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof SpecError, `expected a SpecError, got ${String(error)}`);
    assert.equal(error.file, FILE);
    assert.equal(error.pointer, pointer);
    assert.match(error.message, message);
    assert.ok(error.message.startsWith(`${FILE}#${pointer}: `), error.message);
    return true;
  });
}

/** Runs `fn` with a fresh Warnings for FILE; returns what it gave and the warnings. */
export function withWarnings<T>(fn: (warnings: Warnings) => T): { value: T; warnings: Warning[] } {
  const warnings = new Warnings(FILE);
  return { value: fn(warnings), warnings: warnings.list };
}

/** Exactly one warning, at `pointer`, whose message matches. */
export function warnsOnce(warnings: Warning[], pointer: string, message: RegExp): Warning {
  assert.equal(warnings.length, 1, `expected one warning, got ${JSON.stringify(warnings)}`);
  assert.equal(warnings[0].pointer, pointer);
  assert.match(warnings[0].message, message);
  return warnings[0];
}

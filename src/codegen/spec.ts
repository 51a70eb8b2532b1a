// Loading an OpenAPI document and following its local $refs. Pure functions: no file writes.
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class SpecError extends Error {
  constructor(readonly file: string, readonly pointer: string, message: string) {
    super(`${file}#${pointer}: ${message}`);
  }
}

export function loadDocument(file: string): JsonObject {
  const text = readFileSync(file, "utf8");
  const doc = file.endsWith(".json") ? JSON.parse(text) : parse(text);
  if (!isObject(doc)) throw new SpecError(file, "", "the document is not an object");
  const version = String(doc.openapi ?? "");
  if (!/^3\.[01]\.\d+$/.test(version)) throw new SpecError(file, "/openapi", `unsupported OpenAPI version "${version}" (3.0.x or 3.1.x)`);
  if (!isObject(doc.paths)) throw new SpecError(file, "/paths", "missing paths object");
  return doc;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON pointer segment escaping (RFC 6901). */
export const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** Follows `$ref` chains until a non-reference object; returns it and the pointer it was found at. */
export function deref(doc: JsonObject, value: Json, file: string, at: string): { value: JsonObject; pointer: string } {
  let current = value;
  let pointer = at;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 50) throw new SpecError(file, at, "circular $ref");
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new SpecError(file, pointer, `only local $refs are supported here, got "${ref}"`);
    pointer = ref.slice(1);
    current = ref
      .slice(2)
      .split("/")
      .map(unescapePointer)
      .reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined), doc) as Json;
    if (current === undefined) throw new SpecError(file, pointer, `$ref "${ref}" points at nothing`);
  }
  if (!isObject(current)) throw new SpecError(file, pointer, "expected an object");
  return { value: current, pointer };
}

// Loading an OpenAPI document: validated and bundled by @redocly/openapi-core (openapi-typescript's own loader),
// so $refs to other files become local ones; then following local $refs. No file writes.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { BaseResolver, bundle, createConfig, lintDocument, type Config } from "@redocly/openapi-core";
import { parse } from "yaml";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class SpecError extends Error {
  constructor(readonly file: string, readonly pointer: string, message: string) {
    super(`${file}#${pointer}: ${message}`);
  }
}

/** Redocly rules whose failures make a document unusable for generation; style rules are not our business. */
const FATAL_RULES = { struct: "error", "no-unresolved-refs": "error", "operation-operationId-unique": "error", "path-parameters-defined": "error" } as const;
let config: Promise<Config> | undefined;

/**
 * Reads, validates and bundles `file` (YAML or JSON, OpenAPI 3.0.x/3.1.x): external $refs are pulled into
 * components and rewritten as local ones. The first structural error becomes a SpecError naming its file and pointer.
 */
export async function loadSpec(file: string): Promise<JsonObject> {
  checkHeader(file, readDocument(file));
  config ??= createConfig({ rules: FATAL_RULES } as never);
  const redocly = await config;
  const resolver = new BaseResolver(redocly.resolve);
  const document = await resolver.resolveDocument(null, resolve(file), true);
  if ("originalError" in document) throw new SpecError(file, "", `cannot read: ${document.originalError.message}`);
  const problems = await lintDocument({ document, config: redocly.styleguide, externalRefResolver: resolver });
  const bundled = await bundle({ config: redocly, dereference: false, doc: document });
  const fatal = [...problems, ...bundled.problems].find((p) => p.severity === "error");
  if (fatal) {
    const where = fatal.location?.[0];
    const source = where?.source.absoluteRef ?? file;
    throw new SpecError(source === resolve(file) ? file : source, (where?.pointer ?? "#").replace(/^#/, ""), fatal.message);
  }
  return checkHeader(file, bundled.bundle.parsed as Json);
}

function readDocument(file: string): Json {
  const text = readFileSync(file, "utf8");
  try {
    return file.endsWith(".json") ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new SpecError(file, "", `not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message}`);
  }
}

function checkHeader(file: string, doc: Json): JsonObject {
  if (!isObject(doc)) throw new SpecError(file, "", "the document is not an object");
  const version = String(doc.openapi ?? "");
  if (!/^3\.[01]\.\d+$/.test(version)) throw new SpecError(file, "/openapi", `unsupported OpenAPI version "${version}" (3.0.x or 3.1.x)`);
  if (!isObject(doc.paths)) throw new SpecError(file, "/paths", "missing paths object");
  return doc;
}

/** Synchronous read of a single-file document (no bundling, no structural validation). */
export function loadDocument(file: string): JsonObject {
  return checkHeader(file, readDocument(file));
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON pointer segment escaping (RFC 6901). */
export const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** The value at a local ref ("#/a/b"), or undefined. */
export function at(doc: JsonObject, ref: string): Json | undefined {
  return ref
    .slice(2)
    .split("/")
    .map(unescapePointer)
    .reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined), doc);
}

/** Follows `$ref` chains until a non-reference object; returns it and the pointer it was found at. */
export function deref(doc: JsonObject, value: Json, file: string, where: string): { value: JsonObject; pointer: string } {
  let current = value;
  let pointer = where;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 50) throw new SpecError(file, where, "circular $ref");
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new SpecError(file, pointer, `only local $refs are supported here, got "${ref}"`);
    pointer = ref.slice(1);
    current = at(doc, ref) as Json;
    if (current === undefined) throw new SpecError(file, pointer, `$ref "${ref}" points at nothing`);
  }
  if (!isObject(current)) throw new SpecError(file, pointer, "expected an object");
  return { value: current, pointer };
}

// Loading an OpenAPI document: linted and bundled by @redocly/openapi-core (openapi-typescript's own loader), so
// $refs to other files become local ones; then following local $refs. No file writes.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
// Redocly is loaded by loadSpec only: the spec checks' loadDocument (and a generate whose REST side is cached) need none of it.
import type { BaseResolver, Config, Document, NormalizedProblem } from "@redocly/openapi-core";
import { parse } from "yaml";
import { Warnings } from "./diagnostics.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${file}#${pointer}: ${reason}`);
  }
}

/**
 * Redocly's rules, as warnings except for references that lead nowhere: a structural slip (`nullable` without
 * `type`, an unknown keyword) is the document author's to fix, not a reason to generate nothing.
 */
const RULES = { struct: "warn", "no-unresolved-refs": "error" } as const;
let config: Promise<Config> | undefined;

/**
 * Reads, lints and bundles `file` (YAML or JSON, OpenAPI 3.0.x/3.1.x): external $refs are pulled into components
 * and rewritten as local ones. Lint-level findings become warnings; a $ref that cannot be resolved is a SpecError
 * naming the file and pointer that hold it and the missing target.
 */
export async function loadSpec(
  file: string,
  warnings = new Warnings(file),
  { parsed }: { parsed?: Json } = {},
): Promise<JsonObject> {
  const text = readText(file);
  // `parsed`: the same text as the caller already parsed it; a copy, since the document is normalized in place.
  const doc = checkHeader(file, parsed === undefined ? parseDocument(file, text) : structuredClone(parsed), warnings);
  const { BaseResolver, bundle, createConfig, lintDocument, Source } = await import("@redocly/openapi-core");
  config ??= createConfig({ rules: RULES });
  const redocly = await config;
  const resolver = new BaseResolver(redocly.resolve);
  const absolute = resolve(file);
  // The document parsed once, by us (JSON.parse for .json), and handed to Redocly's resolver as its root.
  const document: Document = {
    source: new Source(absolute, text, file.endsWith(".json") ? "application/json" : "application/yaml"),
    parsed: doc,
  };
  resolver.cache.set(absolute, Promise.resolve(document));
  const refs = refsOf(doc);
  checkRefLoops(file, doc, refs.local);
  let problems: NormalizedProblem[];
  try {
    problems = await lintDocument({ document, config: redocly.styleguide, externalRefResolver: resolver });
  } catch (error) {
    warnings.add("lint", "", `the document could not be linted (${(error as Error).message}); generating without lint`);
    problems = [];
  }
  const dropped = new Set<string>();
  await report(problems, doc);
  if (!refs.external) return doc;
  const bundled = await bundle({ config: redocly, dereference: false, doc: document });
  await report(bundled.problems, bundled.bundle.parsed as JsonObject);
  return bundled.bundle.parsed as JsonObject;

  /**
   * Lint findings become warnings; an unresolvable $ref is fatal, except where nothing generated depends on it
   * (a discriminator mapping's entry, an example, a link): that entry is dropped from `target`, with a warning.
   */
  async function report(list: NormalizedProblem[], target: JsonObject) {
    for (const problem of list) {
      const where = problem.location?.[0];
      const source = where?.source.absoluteRef ?? absolute;
      const pointer = (where?.pointer ?? "#").replace(/^#/, "");
      const name = source === absolute ? file : source;
      if (problem.severity !== "error") {
        warnings.add(
          "lint",
          name === file ? pointer : `${pointer} (in ${name})`,
          problem.message.replace(/\s*\n\s*/g, " "),
        );
        continue;
      }
      if (name === file && dropped.has(pointer)) continue; // reported twice (lint, then bundling)
      const message = await unresolved(resolver, source, pointer, problem.message);
      if (name !== file || !DROPPABLE.test(pointer) || !drop(target, pointer))
        throw new SpecError(name, pointer, message);
      dropped.add(pointer);
      warnings.add("unresolved-ref", pointer, `${message.replace(/; define.*$/, "")}: left out`);
    }
  }
}

/** Where a $ref to nothing can be left out without changing what is generated. */
const DROPPABLE = /\/(discriminator\/mapping|examples|links)\/[^/]+$/;

/** Deletes the member at `pointer`; false when there is nothing there. */
function drop(doc: JsonObject, pointer: string): boolean {
  return replaceAt(doc, pointer, undefined);
}

/** Replaces (or, with undefined, deletes) the object member at `pointer`; false when there is none. */
export function replaceAt(doc: JsonObject, pointer: string, value: Json | undefined): boolean {
  const cut = pointer.lastIndexOf("/");
  const parent = at(doc, `#${pointer.slice(0, cut)}`);
  const key = unescapePointer(pointer.slice(cut + 1));
  if (!isObject(parent) || !(key in parent)) return false;
  if (value === undefined) delete parent[key];
  else parent[key] = value;
  return true;
}

/** The message for an unresolvable $ref: which target is missing, and what to do. */
async function unresolved(resolver: BaseResolver, source: string, pointer: string, message: string): Promise<string> {
  const holder = await resolver.cache.get(source);
  const node = holder && "parsed" in holder ? at(holder.parsed as JsonObject, `#${pointer}`) : undefined;
  // A $ref object, or a discriminator mapping's value
  const ref = isObject(node) && typeof node.$ref === "string" ? node.$ref : typeof node === "string" ? node : undefined;
  if (!ref) return message;
  return `$ref "${ref}" cannot be resolved (${message.replace(/\.$/, "")}); define the target or correct the reference`;
}

/**
 * Every $ref of the document: whether one leads to another file, and the local ones with where they are. Examples'
 * `externalValue`s are dropped on the way: they are URLs a bundler would fetch, and nothing here needs examples.
 */
function refsOf(value: Json, pointer = "", found = { external: false, local: new Map<string, string>() }) {
  if (Array.isArray(value)) value.forEach((v, i) => refsOf(v, `${pointer}/${i}`, found));
  else if (isObject(value)) {
    if (typeof value.externalValue === "string") delete value.externalValue;
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") {
        if (!v.startsWith("#")) found.external = true;
        else if (!found.local.has(v)) found.local.set(v, pointer);
      } else refsOf(v, `${pointer}/${escapePointer(key)}`, found);
    }
  }
  return found;
}

/**
 * $refs that only lead to each other (A: {$ref: B}, B: {$ref: A}) have no value at all: the first one found is a
 * SpecError naming where it is and the loop. Refs through schemas (a tree's children) are fine and not followed.
 */
function checkRefLoops(file: string, doc: JsonObject, local: Map<string, string>) {
  for (const [ref, pointer] of local) {
    const chain = [ref];
    for (
      let node = at(doc, ref);
      isObject(node) && typeof node.$ref === "string" && node.$ref.startsWith("#");
      node = at(doc, node.$ref)
    ) {
      if (chain.includes(node.$ref)) {
        throw new SpecError(
          file,
          pointer,
          `$ref "${ref}" leads only to $refs in a loop (${[...chain, node.$ref].join(" → ")}); make one of them a schema`,
        );
      }
      chain.push(node.$ref);
    }
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new SpecError(file, "", `cannot read: ${(error as Error).message}`);
  }
}

function parseDocument(file: string, text: string): Json {
  try {
    return file.endsWith(".json")
      ? JSON.parse(text)
      : parse(text, { maxAliasCount: -1, uniqueKeys: false, merge: true });
  } catch (error) {
    throw new SpecError(
      file,
      "",
      `not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

function readDocument(file: string): Json {
  return parseDocument(file, readText(file));
}

/**
 * The header checks: an object, OpenAPI 3.0/3.1 (Swagger 2.0 is refused with the way to convert it), paths. With
 * `warnings`, what can be read anyway is: a version written as a number or without its patch, 3.2 read as 3.1, a
 * document without paths (legitimate in 3.1: webhooks or components only).
 */
function checkHeader(file: string, doc: Json, warnings?: Warnings): JsonObject {
  if (!isObject(doc)) throw new SpecError(file, "", "the document is not an object");
  if (doc.swagger !== undefined && doc.openapi === undefined) {
    throw new SpecError(
      file,
      "/swagger",
      `Swagger ${textOf(doc.swagger)} documents are not supported; convert it to OpenAPI 3 first (e.g. \`npx swagger2openapi ${file} -o openapi.yaml\`)`,
    );
  }
  const version = textOf(doc.openapi ?? "");
  if (!/^3\.[01]\.\d+$/.test(version)) {
    const lenient = warnings && /^3(\.[0-2](\.\d+)?(-[\w.]+)?)?$/.test(version);
    if (!lenient) throw new SpecError(file, "/openapi", `unsupported OpenAPI version "${version}" (3.0.x or 3.1.x)`);
    const read = version.startsWith("3.0") || version === "3" ? "3.0.3" : "3.1.0";
    warnings.add(
      "version",
      "/openapi",
      `openapi "${version}" read as ${read}${version.startsWith("3.2") ? " (3.2 additions are ignored)" : ""}`,
    );
    doc.openapi = read;
  }
  if (!isObject(doc.paths)) {
    if (!warnings) throw new SpecError(file, "/paths", "missing paths object");
    if (doc.paths !== undefined || textOf(doc.openapi).startsWith("3.0"))
      warnings.add("paths", "/paths", "no paths object: there are no operations to generate");
    doc.paths = {};
  }
  return doc;
}

/** Synchronous read of a single-file document (no bundling, no structural validation). */
export function loadDocument(file: string): JsonObject {
  return checkHeader(file, readDocument(file));
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A spec's value as text for a message: a scalar as String() writes it, an object or a list as JSON. */
export function textOf(value: Json | undefined): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** JSON pointer segment escaping (RFC 6901). */
export const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
/** A segment of a $ref's fragment: percent-decoded (it is a URI fragment, "%7Bid%7D"), then RFC 6901-unescaped. */
const unescapePointer = (segment: string) => {
  let decoded = segment;
  if (segment.includes("%")) {
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // not percent-encoding after all: as written
    }
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
};

/** The value at a local ref ("#/a/b"), or undefined. */
export function at(doc: JsonObject, ref: string): Json | undefined {
  return ref
    .slice(2)
    .split("/")
    .map(unescapePointer)
    .reduce<Json | undefined>(
      (node, key) => (isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined),
      doc,
    );
}

/** Follows `$ref` chains until a non-reference object; returns it and the pointer it was found at. */
export function deref(
  doc: JsonObject,
  value: Json,
  file: string,
  where: string,
): { value: JsonObject; pointer: string } {
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

/** deref, or (what it cannot follow) a warning that `what` is ignored and undefined. */
export function derefOrWarn(
  doc: JsonObject,
  value: Json,
  file: string,
  where: string,
  warnings: Warnings,
  kind: string,
  what: string,
) {
  try {
    return deref(doc, value, file, where);
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    warnings.add(kind, error.pointer, `${what} ignored: ${error.reason}`);
    return undefined;
  }
}

// OpenAPI schema objects → JSON Schema that ajv validates exactly as the spec means it. Rewrites, per direction:
// 3.0's nullable and boolean exclusiveMinimum/Maximum; discriminator (as if/then on the property, so errors name
// the branch that applies); readOnly fields refused in requests and writeOnly ones in responses (and not required there).
import { at, isObject, type Json, type JsonObject } from "./spec.js";

export type Direction = "request" | "response";
export const READ_ONLY = "x-twinspec-read-only";
export const WRITE_ONLY = "x-twinspec-write-only";
export const docId = (direction: Direction) => `${direction}.json`;

export interface SchemaContext {
  doc: JsonObject;
  direction: Direction;
  /** OpenAPI 3.0.x (draft-4-like schemas) rather than 3.1 (JSON Schema 2020-12) */
  v30: boolean;
}

/** Keywords whose value is a map of names to schemas. */
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS = new Set([
  "items", "prefixItems", "additionalItems", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
  "propertyNames", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
]);
/** OpenAPI keywords that ajv must not see (they are annotations, or rewritten here). */
// $id too: the document is loaded twice (once per direction), and its ids would clash; refs are local after bundling.
const DROPPED = new Set(["discriminator", "nullable", "example", "examples", "xml", "externalDocs", "$id", "$schema"]);

const rebase = (ref: string, ctx: SchemaContext) => (ref.startsWith("#") ? docId(ctx.direction) + ref : ref);
const mapValues = (o: JsonObject, f: (v: Json) => Json): JsonObject => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/**
 * This direction's copy of the whole document, for ajv to resolve $refs in: every schema transformed (the
 * components' and those under any `schema` key), all other $refs rebased.
 */
export function documentFor(ctx: SchemaContext): JsonObject {
  const walk = (value: Json, key: string): Json => {
    if (key === "schema") return toJsonSchema(value, ctx);
    if (Array.isArray(value)) return value.map((v) => walk(v, ""));
    if (!isObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? rebase(v, ctx) : walk(v, k)]));
  };
  const out = walk(ctx.doc, "") as JsonObject;
  const components = isObject(ctx.doc.components) ? ctx.doc.components : {};
  if (isObject(components.schemas)) out.components = { ...(out.components as JsonObject), schemas: mapValues(components.schemas, (s) => toJsonSchema(s, ctx)) };
  return { ...out, $id: docId(ctx.direction) };
}

/** Follows a local $ref chain (for reading annotations such as readOnly); undefined when it leads nowhere. */
function resolveLocal(doc: JsonObject, schema: Json): JsonObject | undefined {
  let current: Json | undefined = schema;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 20; hops++) {
    if (!current.$ref.startsWith("#/")) return undefined;
    // 3.1 allows annotations beside $ref: they win over the target's.
    if (current.readOnly !== undefined || current.writeOnly !== undefined) return current;
    current = at(doc, current.$ref);
  }
  return isObject(current) ? current : undefined;
}

const hidden = (ctx: SchemaContext, schema: Json) => {
  const s = resolveLocal(ctx.doc, schema);
  return ctx.direction === "request" ? s?.readOnly === true : s?.writeOnly === true;
};

/** Transforms one schema (and everything under it); $refs are rebased onto this direction's copy of the document. */
export function toJsonSchema(schema: Json, ctx: SchemaContext): Json {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, ctx));
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") out.$ref = rebase(value, ctx);
    else if (DROPPED.has(key) || key.startsWith("x-")) continue;
    else if (NAMED.has(key) && isObject(value)) out[key] = mapValues(value, (s) => toJsonSchema(s, ctx));
    else if (SUBSCHEMAS.has(key)) out[key] = toJsonSchema(value, ctx);
    else out[key] = value;
  }
  if (schema.readOnly === true && ctx.direction === "request") out[READ_ONLY] = true;
  if (schema.writeOnly === true && ctx.direction === "response") out[WRITE_ONLY] = true;
  if (Array.isArray(schema.required) && isObject(schema.properties)) {
    const props = schema.properties;
    out.required = schema.required.filter((name) => typeof name !== "string" || !props[name] || !hidden(ctx, props[name]));
  }
  exclusiveBounds(out); // a boolean bound is 3.0; converting it in a 3.1 document too beats crashing ajv
  discriminate(schema, out, ctx);
  return schema.nullable === true ? nullable(out) : out;
}

/** 3.0: `exclusiveMinimum: true` qualifies `minimum`; JSON Schema makes it the bound itself. */
function exclusiveBounds(out: JsonObject) {
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
}

/** 3.0 nullable: null is valid too, whatever the other keywords say. */
function nullable(out: JsonObject): Json {
  if (typeof out.type === "string" && out.$ref === undefined && !out.allOf && !out.oneOf && !out.anyOf) {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

/** oneOf/anyOf + discriminator → the property must name a branch, and the branch it names must hold. */
function discriminate(schema: JsonObject, out: JsonObject, ctx: SchemaContext) {
  const d = schema.discriminator;
  const key = Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined;
  if (!isObject(d) || typeof d.propertyName !== "string" || !key) return;
  const mapping = isObject(d.mapping) ? d.mapping : {};
  const branches: { values: string[]; schema: Json }[] = [];
  for (const branch of schema[key] as Json[]) {
    const ref = isObject(branch) && typeof branch.$ref === "string" ? branch.$ref : undefined;
    if (!ref) return; // an inline branch has no name to be discriminated by: plain oneOf/anyOf semantics
    const named = Object.entries(mapping).filter(([, target]) => target === ref || target === ref.split("/").pop()).map(([value]) => value);
    branches.push({ values: named.length > 0 ? named : [ref.split("/").pop()!], schema: toJsonSchema(branch, ctx) });
  }
  const prop = d.propertyName;
  delete out[key];
  const all = Array.isArray(out.allOf) ? out.allOf : [];
  out.allOf = [
    ...all,
    { type: "object", required: [prop], properties: { [prop]: { enum: branches.flatMap((b) => b.values) } } },
    ...branches.map((b) => ({ if: { type: "object", required: [prop], properties: { [prop]: { enum: b.values } } }, then: b.schema })),
  ];
}

/** Every `format` the document uses, so unknown ones can be declared as annotations rather than warned about. */
export function formatsIn(value: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => formatsIn(v, found));
  else if (isObject(value)) {
    if (typeof value.format === "string") found.add(value.format);
    for (const v of Object.values(value)) formatsIn(v, found);
  }
  return found;
}

/**
 * JSON Schema keywords that need each schema's own $id scope, which we give up to load the document once per
 * direction: refused at generate time (the pointer of the first use), never silently mis-validated.
 */
export function unsupportedKeyword(value: Json, pointer = ""): { pointer: string; keyword: string } | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsupportedKeyword(value[i], `${pointer}/${i}`);
      if (found) return found;
    }
  } else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === "$dynamicRef" || key === "$dynamicAnchor" || key === "$recursiveRef") return { pointer: `${pointer}/${key}`, keyword: key };
      const found = unsupportedKeyword(v, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      if (found) return found;
    }
  }
  return undefined;
}

// OpenAPI schema objects → JSON Schema that ajv validates exactly as the spec means it. Rewrites, per direction:
// 3.0's nullable and boolean exclusiveMinimum/Maximum; discriminator (as if/then on the property, so errors name
// the branch that applies); readOnly fields refused in requests and writeOnly ones in responses (and not required there).
// Lint-level slips that would stop ajv (a keyword whose value has the wrong shape, a pattern that is not a regular
// expression) are dropped with a warning, so the rest of the schema is still checked.
import type { Warnings } from "../load/diagnostics.js";
import { at, escapePointer, isObject, type Json, type JsonObject } from "../load/spec.js";

export type Direction = "request" | "response";
export const READ_ONLY = "x-twinspec-read-only";
export const WRITE_ONLY = "x-twinspec-write-only";
export const docId = (direction: Direction) => `${direction}.json`;

export interface SchemaContext {
  doc: JsonObject;
  direction: Direction;
  /** OpenAPI 3.0.x (draft-4-like schemas) rather than 3.1 (JSON Schema 2020-12) */
  v30: boolean;
  /** where the repairs are reported (pointers into the document) */
  warnings?: Warnings;
}

/** Keywords whose value is a map of names to schemas. */
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
]);
/** OpenAPI keywords that ajv must not see (they are annotations, or rewritten here). */
// $id too: the document is loaded twice (once per direction), and its ids would clash; refs are local after bundling.
const DROPPED = new Set(["discriminator", "nullable", "example", "examples", "xml", "externalDocs", "$id", "$schema"]);
/** Need each schema's own $id scope, which we give up to load the document once per direction. */
const DYNAMIC = new Set(["$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const isSchema = (v: Json) => isObject(v) || typeof v === "boolean";
const isCount = (v: Json) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isNumber = (v: Json) => typeof v === "number" && Number.isFinite(v);
const schemaList = (v: Json) => Array.isArray(v) && v.length > 0 && v.every(isSchema);
/** The shape ajv's meta-schema requires of each keyword's value; anything else is dropped with a warning. */
const SHAPES: Record<string, (v: Json) => boolean> = {
  type: (v) =>
    typeof v === "string"
      ? JSON_TYPES.has(v)
      : Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === "string" && JSON_TYPES.has(t)),
  required: (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
  enum: Array.isArray,
  format: (v) => typeof v === "string",
  pattern: (v) => typeof v === "string",
  $ref: (v) => typeof v === "string",
  minimum: isNumber,
  maximum: isNumber,
  exclusiveMinimum: (v) => isNumber(v) || typeof v === "boolean",
  exclusiveMaximum: (v) => isNumber(v) || typeof v === "boolean",
  multipleOf: (v) => isNumber(v) && (v as number) > 0,
  ...Object.fromEntries(
    [
      "minLength",
      "maxLength",
      "minItems",
      "maxItems",
      "minProperties",
      "maxProperties",
      "minContains",
      "maxContains",
    ].map((k) => [k, isCount]),
  ),
  uniqueItems: (v) => typeof v === "boolean",
  ...Object.fromEntries(["allOf", "anyOf", "oneOf", "prefixItems"].map((k) => [k, schemaList])),
  ...Object.fromEntries(
    [
      "not",
      "additionalProperties",
      "additionalItems",
      "contains",
      "propertyNames",
      "if",
      "then",
      "else",
      "unevaluatedProperties",
      "unevaluatedItems",
    ].map((k) => [k, isSchema]),
  ),
  items: (v) => isSchema(v) || schemaList(v),
  ...Object.fromEntries([...NAMED, "dependentRequired", "dependencies"].map((k) => [k, isObject])),
};

/** "u" when the pattern compiles as ajv compiles it (unicode), "" when only without that flag, undefined if never. */
export function patternFlags(pattern: string): "u" | "" | undefined {
  for (const flags of ["u", ""] as const) {
    try {
      new RegExp(pattern, flags);
      return flags;
    } catch {
      // try the next
    }
  }
  return undefined;
}

const rebase = (ref: string, ctx: SchemaContext) => (ref.startsWith("#") ? docId(ctx.direction) + ref : ref);

/**
 * This direction's copy of the whole document, for ajv to resolve $refs in: every schema transformed (the
 * components' and those under any `schema` key), all other $refs rebased.
 */
export function documentFor(ctx: SchemaContext): JsonObject {
  const walk = (value: Json, key: string, pointer: string): Json => {
    if (key === "schema") return toJsonSchema(value, ctx, pointer);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, "", `${pointer}/${i}`));
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" ? rebase(v, ctx) : walk(v, k, `${pointer}/${escapePointer(k)}`),
      ]),
    );
  };
  const components = isObject(ctx.doc.components) ? ctx.doc.components : {};
  const out = walk({ ...ctx.doc, components: { ...components, schemas: {} } }, "", "") as JsonObject;
  if (isObject(components.schemas)) {
    const schemas = Object.fromEntries(
      Object.entries(components.schemas).map(([k, v]) => [
        k,
        toJsonSchema(v, ctx, `/components/schemas/${escapePointer(k)}`),
      ]),
    );
    out.components = { ...(out.components as JsonObject), schemas };
  }
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

/**
 * Transforms one schema (and everything under it) found at `pointer` in the document; $refs are rebased onto this
 * direction's copy of the document.
 */
export function toJsonSchema(schema: Json, ctx: SchemaContext, pointer = ""): Json {
  if (Array.isArray(schema)) return schema.map((s, i) => toJsonSchema(s, ctx, `${pointer}/${i}`));
  if (!isObject(schema)) return schema;
  const warn = (kind: string, key: string, message: string) =>
    ctx.warnings?.add(kind, `${pointer}/${escapePointer(key)}`, message);
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${pointer}/${escapePointer(key)}`;
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    if (DYNAMIC.has(key)) {
      warn("dynamic-ref", key, `${key} is not supported by the validators: what it stands for is not checked`);
      continue;
    }
    if (SHAPES[key] && !SHAPES[key](value)) {
      const swagger =
        key === "type" && value === "file" ? ' ("file" is Swagger 2.0: use type: string, format: binary)' : "";
      warn(
        "schema",
        key,
        `${key}: ${JSON.stringify(value)?.slice(0, 60)} is not a valid value${swagger}; ignored by the validators`,
      );
      continue;
    }
    if (key === "$ref") out.$ref = rebase(value as string, ctx);
    else if (key === "pattern" && patternFlags(value as string) !== "u") {
      if (patternFlags(value as string) === undefined)
        warn("pattern", key, `pattern ${JSON.stringify(value)} is not a regular expression; ignored by the validators`);
      else {
        warn("pattern", key, `pattern ${JSON.stringify(value)} is invalid with the unicode flag; compiled without it`);
        out[key] = value;
      }
    } else if (key === "patternProperties") out[key] = patternProperties(value as JsonObject, ctx, at);
    else if (NAMED.has(key))
      out[key] = Object.fromEntries(
        Object.entries(value as JsonObject).map(([k, s]) => [k, toJsonSchema(s, ctx, `${at}/${escapePointer(k)}`)]),
      );
    else if (key === "items" && Array.isArray(value) && !ctx.v30) {
      warn("schema", key, "items as an array is draft 4-7; read as prefixItems (JSON Schema 2020-12)");
      out.prefixItems = toJsonSchema(value, ctx, at);
    } else if (SUBSCHEMAS.has(key)) out[key] = toJsonSchema(value, ctx, at);
    else out[key] = value;
  }
  if (schema.readOnly === true && ctx.direction === "request") out[READ_ONLY] = true;
  if (schema.writeOnly === true && ctx.direction === "response") out[WRITE_ONLY] = true;
  if (Array.isArray(out.required) && isObject(schema.properties)) {
    const props = schema.properties;
    out.required = out.required.filter((name) => typeof name !== "string" || !props[name] || !hidden(ctx, props[name]));
  }
  exclusiveBounds(out); // a boolean bound is 3.0; converting it in a 3.1 document too beats crashing ajv
  discriminate(schema, out, ctx, pointer);
  if (schema.nullable === true && !ctx.v30)
    warn("nullable", "nullable", 'nullable is OpenAPI 3.0; in 3.1 write type: [..., "null"] (honoured anyway)');
  return schema.nullable === true ? nullable(out) : out;
}

function patternProperties(value: JsonObject, ctx: SchemaContext, at: string): JsonObject {
  const out: JsonObject = {};
  for (const [pattern, schema] of Object.entries(value)) {
    const where = `${at}/${escapePointer(pattern)}`;
    const flags = patternFlags(pattern);
    if (flags === undefined)
      ctx.warnings?.add(
        "pattern",
        where,
        `pattern ${JSON.stringify(pattern)} is not a regular expression; ignored by the validators`,
      );
    else out[pattern] = toJsonSchema(schema, ctx, where);
    if (flags === "")
      ctx.warnings?.add(
        "pattern",
        where,
        `pattern ${JSON.stringify(pattern)} is invalid with the unicode flag; compiled without it`,
      );
  }
  return out;
}

/** 3.0: `exclusiveMinimum: true` qualifies `minimum`; JSON Schema makes it the bound itself. */
function exclusiveBounds(out: JsonObject) {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
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
function discriminate(schema: JsonObject, out: JsonObject, ctx: SchemaContext, pointer: string) {
  const d = schema.discriminator;
  const key = Array.isArray(schema.oneOf) ? "oneOf" : Array.isArray(schema.anyOf) ? "anyOf" : undefined;
  if (!isObject(d) || typeof d.propertyName !== "string" || !key) return;
  const mapping = isObject(d.mapping) ? d.mapping : {};
  const branches: { values: string[]; schema: Json }[] = [];
  for (const branch of schema[key] as Json[]) {
    const ref = isObject(branch) && typeof branch.$ref === "string" ? branch.$ref : undefined;
    if (!ref) return; // an inline branch has no name to be discriminated by: plain oneOf/anyOf semantics
    const named = Object.entries(mapping)
      .filter(([, target]) => target === ref || target === ref.split("/").pop())
      .map(([value]) => value);
    branches.push({
      values: named.length > 0 ? named : [ref.split("/").pop()!],
      schema: toJsonSchema(branch, ctx, pointer),
    });
  }
  const prop = d.propertyName;
  delete out[key];
  const all = Array.isArray(out.allOf) ? out.allOf : [];
  out.allOf = [
    ...all,
    { type: "object", required: [prop], properties: { [prop]: { enum: branches.flatMap((b) => b.values) } } },
    ...branches.map((b) => ({
      if: { type: "object", required: [prop], properties: { [prop]: { enum: b.values } } },
      then: b.schema,
    })),
  ];
}

/**
 * Every `format` the document uses (so unknown ones can be declared as annotations rather than warned about), and
 * whether a pattern compiles only without ajv's unicode flag (then the validators compile such patterns without it).
 */
export function scanSchemas(value: Json, found = { formats: new Set<string>(), nonUnicodePatterns: false }) {
  if (Array.isArray(value)) value.forEach((v) => scanSchemas(v, found));
  else if (isObject(value)) {
    if (typeof value.format === "string") found.formats.add(value.format);
    if (typeof value.pattern === "string" && patternFlags(value.pattern) === "") found.nonUnicodePatterns = true;
    if (isObject(value.patternProperties) && Object.keys(value.patternProperties).some((p) => patternFlags(p) === ""))
      found.nonUnicodePatterns = true;
    for (const v of Object.values(value)) scanSchemas(v, found);
  }
  return found;
}

// Compiles every schema the server checks — parameters, request bodies, response bodies — into standalone ajv code
// at generate time, so the server never compiles a schema at start. Identical schemas share one validator, named
// after the schema component it is when it is one (validators.Problem), else after the first operation part using it.
import { createRequire } from "node:module";
import { bodyKind, isJson } from "twinspec/internals";
import { Warnings, type Warning } from "../load/diagnostics.js";
import { identifier, type Operation } from "../model/operations.js";
import type { ParamLocation } from "../model/parameters.js";
import {
  docId,
  documentFor,
  READ_ONLY,
  scanSchemas,
  toJsonSchema,
  WRITE_ONLY,
  type Direction,
  type SchemaContext,
} from "../model/schemas.js";
import { escapePointer, isObject, textOf, type Json, type JsonObject } from "../load/spec.js";
import { standaloneCode } from "./ajv-standalone.js";

const require = createRequire(import.meta.url);
type AjvClass = typeof import("ajv").default;
const Ajv2020 = require("ajv/dist/2020").default as AjvClass;
const AjvDraft7 = require("ajv").default as AjvClass;
const { _ } = require("ajv") as typeof import("ajv");
const addFormats = require("ajv-formats") as (ajv: unknown) => void;

export const PARAM_LOCATIONS: ParamLocation[] = ["path", "query", "header", "cookie"];

/** Export name of the validator for one part of one operation. */
export const validatorName = (operationId: string, part: string) => `${identifier(operationId)}_${part}`;

/**
 * Export name of the validator of the parameters in one location, named by what it checks ("path_petId",
 * "header_ifMatch"): every operation with the same parameters shares it.
 */
const parametersValidatorName = (location: ParamLocation, names: string[]) =>
  `${location}_${[...names].sort().map(identifier).join("_")}`;

/** The schema component a media type's schema is, when it is nothing but a reference to one. */
function componentOf(schema: Json): string | undefined {
  if (!isObject(schema) || typeof schema.$ref !== "string" || Object.keys(schema).length !== 1) return undefined;
  const name = /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1];
  return name?.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A component's name as an export name: as written, but for what an identifier cannot hold. */
function componentExport(component: string): string {
  const name = component.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export interface OperationValidators {
  params: Partial<Record<ParamLocation, string>>;
  /** by request content type */
  body: Record<string, string>;
  /** by status ("200", "2XX", "default"), then content type */
  responses: Record<string, Record<string, string>>;
}

export interface CompiledValidators {
  /** CommonJS (ajv's standalone output requires its runtime helpers), one export per name */
  source: string;
  names: string[];
  byOperation: Map<string, OperationValidators>;
  /** schema repairs, and the parts left unvalidated because ajv could not compile their schema */
  warnings: Warning[];
}

export function parametersSchema(operation: Operation, location: ParamLocation, ctx?: SchemaContext): JsonObject {
  const params = operation.parameters.filter((p) => p.in === location);
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, ctx ? toJsonSchema(p.schema, ctx) : p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/** Bodies we parse into something a schema can check (binary bodies stay bytes and are not validated). */
const checkable = (type: string) => ["json", "form", "text", "multipart"].includes(bodyKind(type));

/** Where the validators' schemas sit in the document's copies (a key that is no keyword, like any x- key). */
const HOLDER = "x-twinspec-validators";

const pointerOf = (op: Operation) => `/paths/${escapePointer(op.path)}/${op.method}`;

/** One schema the server checks: the parameters of one location, a request body or a response body. */
interface Part {
  /** the name the operation gives it, "<operationId>_<part>" */
  name: string;
  /** the schema component it is, if it is only a reference to one */
  component?: string;
  /** as ajv checks it, in its direction */
  schema: Json;
  pointer: string;
  direction: Direction;
  /** records the validator's name in the operation's entry */
  use: (name: string) => void;
}

/** An operation's parts in a fixed order (parameters by location, bodies, responses); `entry` gets their names. */
function partsOf(op: Operation, entry: OperationValidators, contexts: Record<Direction, SchemaContext>): Part[] {
  const at = pointerOf(op);
  const parts: Part[] = [];
  for (const location of PARAM_LOCATIONS) {
    const names = op.parameters.filter((p) => p.in === location).map((p) => p.name);
    if (names.length === 0) continue;
    const schema = parametersSchema(op, location, contexts.request);
    parts.push({
      name: parametersValidatorName(location, names),
      schema,
      pointer: `${at}/parameters`,
      direction: "request",
      use: (used) => (entry.params[location] = used),
    });
  }
  op.requestBody?.contentTypes.forEach((type, i) => {
    if (!checkable(type) || op.requestBody!.raw?.includes(type)) return;
    const where = `${at}/requestBody/content/${escapePointer(type)}/schema`;
    const raw = op.requestBody!.schemas[type];
    const schema = toJsonSchema(raw, contexts.request, where);
    parts.push({
      name: validatorName(op.operationId, `body${i}`),
      component: componentOf(raw),
      schema,
      pointer: where,
      direction: "request",
      use: (name) => (entry.body[type] = name),
    });
  });
  for (const response of op.responses) {
    const byType: Record<string, string> = (entry.responses[response.status] = {});
    response.contentTypes.forEach((type, i) => {
      if (!isJson(type)) return;
      const where = `${at}/responses/${response.status}/content/${escapePointer(type)}/schema`;
      const raw = response.schemas[type];
      const schema = toJsonSchema(raw, contexts.response, where);
      parts.push({
        name: validatorName(op.operationId, `res${response.status}${i ? `_${i}` : ""}`),
        component: componentOf(raw),
        schema,
        pointer: where,
        direction: "response",
        use: (name) => (byType[type] = name),
      });
    });
  }
  return parts;
}

/** ajv's RegExp engine for documents with patterns that only compile without the unicode flag (in the output too). */
const lenientRegExp = Object.assign(
  (pattern: string, flags: string) => {
    try {
      return new RegExp(pattern, flags);
    } catch {
      return new RegExp(pattern);
    }
  },
  { code: "(pattern, flags) => { try { return new RegExp(pattern, flags); } catch { return new RegExp(pattern); } }" },
);

export function compileValidators(doc: JsonObject, operations: Operation[], file = ""): CompiledValidators {
  const warnings = new Warnings(file);
  const v30 = textOf(doc.openapi).startsWith("3.0");
  const Ajv = v30 ? AjvDraft7 : Ajv2020;
  const scan = scanSchemas(doc);
  // inlineRefs off: a component used by many operations is one function, not copied into each (large documents
  // compile in about half the time into half the code).
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    inlineRefs: false,
    code: { source: true, lines: true, ...(scan.nonUnicodePatterns ? { regExp: lenientRegExp } : {}) },
  });
  addFormats(ajv);
  // Formats ajv-formats does not know (e.g. "currency") are annotations, as JSON Schema allows.
  for (const format of scan.formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addKeyword({
    keyword: READ_ONLY,
    schemaType: "boolean",
    error: { message: "is read-only and cannot be sent" },
    code: (cxt) => cxt.fail(_`true`),
  });
  ajv.addKeyword({
    keyword: WRITE_ONLY,
    schemaType: "boolean",
    error: { message: "is write-only and must not be answered" },
    code: (cxt) => cxt.fail(_`true`),
  });
  // The document's copies report the schema repairs (every schema of the document is in them, at its own pointer);
  // the operations' parts, transformed again below, are the same schemas and stay quiet.
  // Each validator is placed in its direction's copy (under HOLDER) and compiled from there: ajv caches a compiled
  // $ref target per root schema, so validators added as roots of their own compiled every component they name
  // again (graph.json: 7,900 functions for 3,649 validators); under one root each component is compiled once.
  const holders = {} as Record<Direction, JsonObject>;
  for (const direction of ["request", "response"] as Direction[]) {
    const copy = documentFor({ doc, direction, v30, warnings });
    copy[HOLDER] = holders[direction] = {};
    ajv.addSchema(copy, docId(direction));
  }
  const contexts = Object.fromEntries(
    (["request", "response"] as Direction[]).map((direction) => [direction, { doc, direction, v30 }]),
  ) as Record<Direction, SchemaContext>;

  const refs: Record<string, string> = {};
  const seen = new Map<string, string | undefined>();
  /** The first of `names` no other validator has (numbered after the last one when all are taken). */
  const free = (names: string[]) => {
    const taken = (name: string) => Object.hasOwn(refs, name) || name === "__proto__";
    const last = names[names.length - 1];
    let n = 2;
    let name = names.find((candidate) => !taken(candidate)) ?? `${last}_${n}`;
    while (taken(name)) name = `${last}_${++n}`;
    return name;
  };
  /**
   * Registers a schema under the first free one of `names` unless an identical one is already there; returns the
   * name to use. Compiled at once, so a schema ajv cannot compile leaves only that part of that operation
   * unvalidated, with a warning.
   */
  const add = (names: string[], schema: Json, pointer: string, direction: Direction): string | undefined => {
    const key = JSON.stringify(schema);
    if (seen.has(key)) return seen.get(key);
    const name = free(names);
    const id = `${docId(direction)}#/${HOLDER}/${name}`;
    try {
      void ajv.validateSchema(schema as object, true); // as addSchema did
      holders[direction][name] = schema;
      if (!ajv.getSchema(id)) throw new Error(`no schema at ${id}`);
      refs[name] = id;
      seen.set(key, name);
      return name;
    } catch (error) {
      delete holders[direction][name];
      ajv.removeSchema(id);
      warnings.add(
        "validator",
        pointer,
        `not validated: ajv cannot compile this schema (${(error as Error).message.split("\n")[0]})`,
      );
      seen.set(key, undefined);
      return undefined;
    }
  };
  const byOperation = new Map<string, OperationValidators>();
  const parts: Part[] = [];
  for (const op of operations) {
    const entry: OperationValidators = { params: {}, body: {}, responses: {} };
    parts.push(...partsOf(op, entry, contexts));
    byOperation.set(op.operationId, entry);
  }
  // A component read in both directions has a validator in each (each direction's copy): each name says which.
  const directions = new Map<string, Set<Direction>>();
  for (const { component, direction } of parts)
    if (component) directions.set(component, new Set(directions.get(component)).add(direction));
  for (const part of parts) {
    const component =
      part.component &&
      `${componentExport(part.component)}${directions.get(part.component)!.size > 1 ? `_${part.direction}` : ""}`;
    const name = add(component ? [component, part.name] : [part.name], part.schema, part.pointer, part.direction);
    if (name) part.use(name);
  }
  return { source: standaloneCode(ajv as never, refs), names: Object.keys(refs), byOperation, warnings: warnings.list };
}

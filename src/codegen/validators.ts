// Compiles every schema the server checks — parameters, request bodies, response bodies — into standalone ajv code
// at generate time, so the server never compiles a schema at start. Identical schemas share one validator.
import { createRequire } from "node:module";
import { isJson } from "../http/body.js";
import { identifier, type Operation } from "./operations.js";
import type { ParamLocation } from "./parameters.js";
import { docId, documentFor, formatsIn, READ_ONLY, toJsonSchema, WRITE_ONLY, type Direction, type SchemaContext } from "./schemas.js";
import type { Json, JsonObject } from "./spec.js";

const require = createRequire(import.meta.url);
type AjvClass = typeof import("ajv").default;
const Ajv2020 = require("ajv/dist/2020").default as AjvClass;
const AjvDraft7 = require("ajv").default as AjvClass;
const { _ } = require("ajv") as typeof import("ajv");
const addFormats = require("ajv-formats") as (ajv: unknown) => void;
const standaloneCode = require("ajv/dist/standalone").default as (ajv: unknown, refs: Record<string, string>) => string;

export const PARAM_LOCATIONS: ParamLocation[] = ["path", "query", "header", "cookie"];

/** Export name of the validator for one part of one operation. */
export const validatorName = (operationId: string, part: string) => `${identifier(operationId)}_${part}`;

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
const checkable = (type: string) => isJson(type) || type === "application/x-www-form-urlencoded" || type.startsWith("text/");

export function compileValidators(doc: JsonObject, operations: Operation[]): CompiledValidators {
  const v30 = String(doc.openapi).startsWith("3.0");
  const Ajv = v30 ? AjvDraft7 : Ajv2020;
  const ajv = new Ajv({ allErrors: true, strict: false, code: { source: true, lines: true } });
  addFormats(ajv);
  // Formats ajv-formats does not know (e.g. "currency") are annotations, as JSON Schema allows.
  for (const format of formatsIn(doc)) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addKeyword({ keyword: READ_ONLY, schemaType: "boolean", error: { message: "is read-only and cannot be sent" }, code: (cxt) => cxt.fail(_`true`) });
  ajv.addKeyword({ keyword: WRITE_ONLY, schemaType: "boolean", error: { message: "is write-only and must not be answered" }, code: (cxt) => cxt.fail(_`true`) });
  const contexts = Object.fromEntries((["request", "response"] as Direction[]).map((direction) => [direction, { doc, direction, v30 }])) as Record<Direction, SchemaContext>;
  for (const ctx of Object.values(contexts)) ajv.addSchema(documentFor(ctx) as object, docId(ctx.direction));

  const refs: Record<string, string> = {};
  const seen = new Map<string, string>();
  /** Registers a schema under `name` unless an identical one is already there; returns the name to use. */
  const add = (name: string, schema: Json): string => {
    const key = JSON.stringify(schema);
    const existing = seen.get(key);
    if (existing) return existing;
    ajv.addSchema(schema as object, name);
    refs[name] = name;
    seen.set(key, name);
    return name;
  };
  const byOperation = new Map<string, OperationValidators>();
  for (const op of operations) {
    const entry: OperationValidators = { params: {}, body: {}, responses: {} };
    for (const location of PARAM_LOCATIONS) {
      if (op.parameters.some((p) => p.in === location)) {
        entry.params[location] = add(validatorName(op.operationId, location), parametersSchema(op, location, contexts.request));
      }
    }
    op.requestBody?.contentTypes.forEach((type, i) => {
      if (checkable(type)) entry.body[type] = add(validatorName(op.operationId, `body${i}`), toJsonSchema(op.requestBody!.schemas[type], contexts.request));
    });
    for (const response of op.responses) {
      const byType: Record<string, string> = {};
      response.contentTypes.forEach((type, i) => {
        if (!isJson(type)) return;
        byType[type] = add(validatorName(op.operationId, `res${response.status}${i ? `_${i}` : ""}`), toJsonSchema(response.schemas[type], contexts.response));
      });
      entry.responses[response.status] = byType;
    }
    byOperation.set(op.operationId, entry);
  }
  return { source: standaloneCode(ajv, refs), names: Object.keys(refs), byOperation };
}

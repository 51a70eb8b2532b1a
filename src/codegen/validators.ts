// Compiles every input schema of every operation into standalone ajv code at generate time,
// so the server never compiles a schema at start.
import { createRequire } from "node:module";
import { identifier, type Operation, type ParamLocation } from "./operations.js";
import { isObject, type Json, type JsonObject } from "./spec.js";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default as typeof import("ajv").default;
const AjvDraft7 = require("ajv").default as typeof import("ajv").default;
const addFormats = require("ajv-formats") as (ajv: unknown) => void;
const standaloneCode = require("ajv/dist/standalone").default as (ajv: unknown, refs: Record<string, string>) => string;

const DOC_ID = "openapi.json";

export const PARAM_LOCATIONS: ParamLocation[] = ["path", "query", "header", "cookie"];

/** Export name of the validator for one part of one operation. */
export const validatorName = (operationId: string, part: ParamLocation | `body${number}`) => `${identifier(operationId)}_${part}`;

/** Local refs point into the whole document, which ajv knows as DOC_ID. */
function rebase(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#") ? DOC_ID + value : rebase(value);
  }
  return out;
}

export function parametersSchema(operation: Operation, location: ParamLocation): JsonObject {
  const params = operation.parameters.filter((p) => p.in === location);
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, rebase(p.schema)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/** CommonJS source (ajv's standalone output requires its runtime helpers) exporting one function per part. */
export function compileValidators(doc: JsonObject, operations: Operation[]): { source: string; names: string[] } {
  const Ajv = String(doc.openapi).startsWith("3.0") ? AjvDraft7 : Ajv2020;
  const ajv = new Ajv({ allErrors: true, strict: false, code: { source: true, lines: true }, discriminator: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID } as object);
  const refs: Record<string, string> = {};
  const add = (name: string, schema: Json) => {
    ajv.addSchema(schema as object, name);
    refs[name] = name;
  };
  for (const op of operations) {
    for (const location of PARAM_LOCATIONS) {
      if (op.parameters.some((p) => p.in === location)) add(validatorName(op.operationId, location), parametersSchema(op, location));
    }
    op.requestBody?.contentTypes.forEach((type, i) => add(validatorName(op.operationId, `body${i}`), rebase(op.requestBody!.schemas[type])));
  }
  return { source: standaloneCode(ajv, refs), names: Object.keys(refs) };
}

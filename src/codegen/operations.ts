// Turns the paths of an OpenAPI document into a flat list of operations: the model every emitter reads.
import { deref, escapePointer, isObject, SpecError, type Json, type JsonObject } from "./spec.js";

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type Method = (typeof METHODS)[number];
export type ParamLocation = "path" | "query" | "header" | "cookie";

export interface Parameter {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: Json;
  /** The JSON type the raw string must be coerced to before validation. */
  coerce: "string" | "integer" | "number" | "boolean" | "array" | "none";
}

export interface ResponseHeader {
  name: string;
  required: boolean;
}

export interface ResponseSpec {
  status: string;
  contentTypes: string[];
  headers: ResponseHeader[];
}

export interface SecurityRequirement {
  scheme: string;
  scopes: string[];
}

export interface Operation {
  operationId: string;
  method: Method;
  path: string;
  /** path in @koa/router syntax */
  routePath: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; contentTypes: string[]; schemas: Record<string, Json> };
  responses: ResponseSpec[];
  /** alternatives (OR) of requirements (AND); [] = public */
  security: SecurityRequirement[][];
}

export function collectOperations(doc: JsonObject, file: string): Operation[] {
  const operations: Operation[] = [];
  const seen = new Set<string>();
  const paths = doc.paths as JsonObject;
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemAt = `/paths/${escapePointer(path)}`;
    const item = deref(doc, rawItem, file, itemAt).value;
    const shared = parameterList(doc, item.parameters, file, `${itemAt}/parameters`);
    for (const method of METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const at = `${itemAt}/${method}`;
      const operationId = typeof raw.operationId === "string" ? raw.operationId : deriveOperationId(method, path);
      // Generated names derive from the identifier form, so "getX" and "GetX" or "get-x" would collide.
      const name = identifier(operationId).toLowerCase();
      if (seen.has(name)) throw new SpecError(file, `${at}/operationId`, `operationId "${operationId}" collides with another one once made an identifier`);
      seen.add(name);
      const own = parameterList(doc, raw.parameters, file, `${at}/parameters`);
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.push({
        operationId,
        method,
        path,
        routePath: toRoutePath(path, parameters, file, at),
        parameters,
        requestBody: requestBody(doc, raw.requestBody, file, `${at}/requestBody`),
        responses: responses(doc, raw.responses, file, `${at}/responses`),
        security: security(raw.security ?? doc.security ?? [], file, `${at}/security`),
      });
    }
  }
  return operations;
}

/** Stable name for operations without an operationId: method + path words, e.g. getCustomersByCustomerId. */
export function deriveOperationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? `By ${param[1]}` : segment;
    })
    .join(" ");
  return identifier(`${method} ${words}`);
}

/** camelCase identifier from any text: "get /a-b/{c}" → "getABC". */
export function identifier(text: string): string {
  const parts = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = parts.map((p, i) => (i === 0 ? p[0].toLowerCase() + p.slice(1) : p[0].toUpperCase() + p.slice(1))).join("");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel || "_";
}

function toRoutePath(path: string, parameters: Parameter[], file: string, at: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (!parameters.some((p) => p.in === "path" && p.name === name)) {
      throw new SpecError(file, at, `path parameter "${name}" of ${path} is not declared`);
    }
    return `:${routeParamName(name)}`;
  });
}

/** @koa/router (path-to-regexp 8) needs identifier-like names. */
export const routeParamName = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_");

function parameterList(doc: JsonObject, raw: Json | undefined, file: string, at: string): Parameter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new SpecError(file, at, "parameters must be an array");
  return raw.map((entry, i) => {
    const { value: p, pointer } = deref(doc, entry, file, `${at}/${i}`);
    const location = p.in;
    if (typeof p.name !== "string" || !["path", "query", "header", "cookie"].includes(String(location))) {
      throw new SpecError(file, pointer, "a parameter needs a name and in: path|query|header|cookie");
    }
    if (p.content !== undefined) throw new SpecError(file, pointer, "parameters with `content` are not supported; use `schema`");
    const style = p.style ?? (location === "query" || location === "cookie" ? "form" : "simple");
    const supported = location === "query" || location === "cookie" ? style === "form" : style === "simple";
    if (!supported) throw new SpecError(file, `${pointer}/style`, `parameter style "${String(style)}" in ${String(location)} is not supported`);
    const schema = p.schema ?? {};
    return {
      name: p.name,
      in: location as ParamLocation,
      required: location === "path" ? true : p.required === true,
      schema,
      coerce: coercion(doc, schema, file, `${pointer}/schema`),
    };
  });
}

function coercion(doc: JsonObject, schema: Json, file: string, at: string): Parameter["coerce"] {
  const resolved = isObject(schema) && schema.$ref ? deref(doc, schema, file, at).value : schema;
  if (!isObject(resolved)) return "none";
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  for (const t of ["array", "integer", "number", "boolean", "string"] as const) if (types.includes(t)) return t;
  return "none";
}

function requestBody(doc: JsonObject, raw: Json | undefined, file: string, at: string): Operation["requestBody"] {
  if (raw === undefined) return undefined;
  const { value, pointer } = deref(doc, raw, file, at);
  if (!isObject(value.content)) throw new SpecError(file, `${pointer}/content`, "requestBody needs content");
  const schemas: Record<string, Json> = {};
  for (const [type, media] of Object.entries(value.content)) schemas[type] = isObject(media) ? (media.schema ?? {}) : {};
  return { required: value.required === true, contentTypes: Object.keys(schemas), schemas };
}

function responses(doc: JsonObject, raw: Json | undefined, file: string, at: string): ResponseSpec[] {
  if (!isObject(raw)) throw new SpecError(file, at, "an operation needs responses");
  return Object.entries(raw).map(([status, entry]) => {
    const { value, pointer } = deref(doc, entry, file, `${at}/${status}`);
    const headers = Object.entries(isObject(value.headers) ? value.headers : {}).map(([name, h]) => ({
      name,
      required: deref(doc, h, file, `${pointer}/headers/${escapePointer(name)}`).value.required === true,
    }));
    return { status, contentTypes: isObject(value.content) ? Object.keys(value.content) : [], headers };
  });
}

function security(raw: Json, file: string, at: string): SecurityRequirement[][] {
  if (!Array.isArray(raw)) throw new SpecError(file, at, "security must be an array");
  return raw.map((alternative, i) => {
    if (!isObject(alternative)) throw new SpecError(file, `${at}/${i}`, "a security requirement must be an object");
    return Object.entries(alternative).map(([scheme, scopes]) => ({
      scheme,
      scopes: Array.isArray(scopes) ? scopes.map(String) : [],
    }));
  });
}

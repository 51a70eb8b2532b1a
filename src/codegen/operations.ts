// Turns the paths of an OpenAPI document (bundled: local $refs only) into a flat list of operations: the model every emitter reads.
import { parameterList, schemaType, type Parameter, type ParamType, type Scalar } from "./parameters.js";
import { deref, escapePointer, isObject, SpecError, type Json, type JsonObject } from "./spec.js";

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type Method = (typeof METHODS)[number];
export type { ParamLocation, Parameter, Scalar } from "./parameters.js";

/** How a form-urlencoded body's fields are read: like query parameters, by the property's type. */
export type FormField = { type: Exclude<ParamType, "json" | "object">; items?: Scalar };

export interface ResponseHeader {
  name: string;
  required: boolean;
}

export interface ResponseSpec {
  /** "200", "2XX" or "default" */
  status: string;
  contentTypes: string[];
  headers: ResponseHeader[];
  /** schema per content type ({} when the media type has none) */
  schemas: Record<string, Json>;
}

export interface RequestBody {
  required: boolean;
  contentTypes: string[];
  schemas: Record<string, Json>;
  /** fields of an application/x-www-form-urlencoded body, by name */
  form?: Record<string, FormField>;
}

export interface SecurityRequirement {
  scheme: string;
  scopes: string[];
}

export interface Operation {
  operationId: string;
  /** no operationId in the spec: the name is derived, and openapi-typescript's `operations` has no entry for it */
  derivedId?: true;
  method: Method;
  path: string;
  /** path in @koa/router syntax */
  routePath: string;
  parameters: Parameter[];
  requestBody?: RequestBody;
  responses: ResponseSpec[];
  /** alternatives (OR) of requirements (AND); [] = public */
  security: SecurityRequirement[][];
  /** the operation's tags, as written (the first one groups its handlers) */
  tags: string[];
  /** the operation's x-* extensions, as written */
  extensions: JsonObject;
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
        ...(typeof raw.operationId === "string" ? {} : { derivedId: true as const }),
        method,
        path,
        routePath: toRoutePath(path, parameters, file, at),
        parameters,
        requestBody: requestBody(doc, raw.requestBody, file, `${at}/requestBody`),
        responses: responses(doc, raw.responses, file, `${at}/responses`),
        security: security(raw.security ?? doc.security ?? [], file, `${at}/security`),
        tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === "string") : [],
        extensions: Object.fromEntries(Object.entries(raw).filter(([key]) => key.startsWith("x-"))),
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

function requestBody(doc: JsonObject, raw: Json | undefined, file: string, at: string): RequestBody | undefined {
  if (raw === undefined) return undefined;
  const { value, pointer } = deref(doc, raw, file, at);
  if (!isObject(value.content)) throw new SpecError(file, `${pointer}/content`, "requestBody needs content");
  const schemas = mediaSchemas(value.content);
  const body: RequestBody = { required: value.required === true, contentTypes: Object.keys(schemas), schemas };
  const form = schemas["application/x-www-form-urlencoded"];
  if (form !== undefined) body.form = formFields(doc, form, file, `${pointer}/content/application~1x-www-form-urlencoded/schema`);
  return body;
}

function mediaSchemas(content: JsonObject): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const [type, media] of Object.entries(content)) schemas[type.toLowerCase()] = isObject(media) ? (media.schema ?? {}) : {};
  return schemas;
}

function formFields(doc: JsonObject, schema: Json, file: string, at: string): Record<string, FormField> {
  const resolved = isObject(schema) && schema.$ref ? deref(doc, schema, file, at).value : schema;
  const fields: Record<string, FormField> = {};
  const props = isObject(resolved) && isObject(resolved.properties) ? resolved.properties : {};
  for (const [name, sub] of Object.entries(props)) {
    const type = schemaType(doc, sub, file, `${at}/properties/${escapePointer(name)}`);
    if (type === "object") throw new SpecError(file, `${at}/properties/${escapePointer(name)}`, "nested objects in a form-urlencoded body are not supported");
    if (type !== "array") {
      fields[name] = { type };
      continue;
    }
    const subSchema = isObject(sub) && sub.$ref ? deref(doc, sub, file, at).value : (sub as JsonObject);
    const items = schemaType(doc, subSchema.items ?? {}, file, `${at}/properties/${escapePointer(name)}/items`);
    if (items === "array" || items === "object") throw new SpecError(file, `${at}/properties/${escapePointer(name)}`, "arrays of arrays or objects in a form-urlencoded body are not supported");
    fields[name] = { type, items };
  }
  return fields;
}

function responses(doc: JsonObject, raw: Json | undefined, file: string, at: string): ResponseSpec[] {
  if (!isObject(raw)) throw new SpecError(file, at, "an operation needs responses");
  return Object.entries(raw).map(([status, entry]) => {
    if (!/^([1-5](\d\d|XX)|default)$/.test(status)) throw new SpecError(file, `${at}/${status}`, `"${status}" is not a status code, a range like 2XX, or default`);
    const { value, pointer } = deref(doc, entry, file, `${at}/${status}`);
    const headers = Object.entries(isObject(value.headers) ? value.headers : {}).map(([name, h]) => ({
      name,
      required: deref(doc, h, file, `${pointer}/headers/${escapePointer(name)}`).value.required === true,
    }));
    const schemas = isObject(value.content) ? mediaSchemas(value.content) : {};
    return { status, contentTypes: Object.keys(schemas), headers, schemas };
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

// Turns the paths of an OpenAPI document (bundled: local $refs only) into a flat list of operations: the model every emitter reads.
import { bodyKind, mediaType } from "twinspec/internals";
import { Warnings } from "../load/diagnostics.js";
import { Degraded, parameterList, schemaType, type Parameter, type ParamType, type Scalar } from "./parameters.js";
import { deref, derefOrWarn, escapePointer, isObject, SpecError, type Json, type JsonObject } from "../load/spec.js";

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
type Method = (typeof METHODS)[number];
export type { Parameter } from "./parameters.js";

/** How a form-urlencoded body's fields are read: like query parameters, by the property's type. */
type FormField = { type: Exclude<ParamType, "json" | "object">; items?: Scalar };

interface ResponseHeader {
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

/** How a multipart/form-data part is read: a file, several files, JSON, or a form-like scalar (array). */
type MultipartField =
  | { type: "file" | "files"; contentTypes?: string[]; maxBytes?: number }
  | { type: "json" }
  | FormField;

interface RequestBody {
  required: boolean;
  contentTypes: string[];
  schemas: Record<string, Json>;
  /** fields of an application/x-www-form-urlencoded body, by name */
  form?: Record<string, FormField>;
  /** parts of a multipart/form-data body, by name */
  multipart?: Record<string, MultipartField>;
  /** media types the runtime hands over unparsed or uncoerced and does not validate (degraded, with a warning) */
  raw?: string[];
}

interface SecurityRequirement {
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

/**
 * Every operation of the document. Lint-level defects are read past and degradations are made with a warning in
 * `warnings`; an operation that cannot be read at all is left out, with a warning, never the whole document. Names
 * the generated code would share (duplicate operationIds, or ones equal once made identifiers) are made unique in
 * `doc` itself, so openapi-typescript, reading the same object afterwards, types each under its own name.
 */
export function collectOperations(doc: JsonObject, file: string, warnings = new Warnings(file)): Operation[] {
  const operations: Operation[] = [];
  const taken = new Set<string>();
  const routes = new Map<string, string>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemAt = `/paths/${escapePointer(path)}`;
    if (!path.startsWith("/")) {
      warnings.add("path", itemAt, `path "${path}" does not start with "/": skipped`);
      continue;
    }
    const route = path.replace(/\{[^}]*\}/g, "{}").replace(/(.)\/$/, "$1");
    const same = routes.get(route);
    if (same)
      warnings.add(
        "path",
        itemAt,
        `path "${path}" matches the same requests as "${same}" (only the names of their parameters differ): requests reach only one of them`,
      );
    else routes.set(route, path);
    if (/[?#]/.test(path))
      warnings.add(
        "path",
        itemAt,
        `path "${path}" holds "?" or "#", which a request path never does: its operations are typed but no request reaches them`,
      );
    try {
      const item = deref(doc, rawItem, file, itemAt).value;
      const shared = parameterList(doc, item.parameters, file, `${itemAt}/parameters`, warnings);
      for (const method of METHODS) {
        if (!isObject(item[method])) continue;
        const at = `${itemAt}/${method}`;
        try {
          operations.push(operation(doc, item[method], { method, path, at, file, shared, taken, warnings }));
        } catch (error) {
          skipped(error, warnings, at, `${method.toUpperCase()} ${path}`);
        }
      }
    } catch (error) {
      skipped(error, warnings, itemAt, `path ${path}`);
    }
  }
  return operations;
}

/** An operation that could not be read is left out with a warning; an unexpected error too, asking for a report. */
function skipped(error: unknown, warnings: Warnings, at: string, what: string) {
  if (error instanceof SpecError) warnings.add("skipped", error.pointer, `${what} skipped: ${error.reason}`);
  else
    warnings.add(
      "internal",
      at,
      `${what} skipped after an internal error of the generator (${(error as Error)?.message ?? String(error)}); please report it`,
    );
}

interface Where {
  method: Method;
  path: string;
  at: string;
  file: string;
  shared: Parameter[];
  taken: Set<string>;
  warnings: Warnings;
}

function operation(
  doc: JsonObject,
  raw: JsonObject,
  { method, path, at, file, shared, taken, warnings }: Where,
): Operation {
  const explicit =
    typeof raw.operationId === "string" && identifier(raw.operationId) !== "_" ? raw.operationId : undefined;
  if (raw.operationId !== undefined && !explicit)
    warnings.add(
      "operation-id",
      `${at}/operationId`,
      "operationId is not a usable name; one is derived from method and path",
    );
  let operationId = explicit ?? deriveOperationId(method, path);
  // Generated names derive from the identifier form, so "getX" and "GetX" or "get-x" would collide.
  if (taken.has(identifier(operationId).toLowerCase())) {
    let n = 2;
    while (taken.has(identifier(`${operationId}_${n}`).toLowerCase())) n++;
    const renamed = `${operationId}_${n}`;
    warnings.add(
      "operation-id",
      `${at}/operationId`,
      `operationId "${operationId}" is already taken (or equal to another once made an identifier): this one is named "${renamed}"`,
    );
    if (explicit) raw.operationId = renamed;
    operationId = renamed;
  }
  taken.add(identifier(operationId).toLowerCase());
  const own = parameterList(doc, raw.parameters, file, `${at}/parameters`, warnings);
  const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
  declarePathParameters(path, parameters, raw, at, warnings);
  return {
    operationId,
    ...(explicit ? {} : { derivedId: true as const }),
    method,
    path,
    routePath: toRoutePath(path),
    parameters,
    requestBody: requestBody(doc, raw.requestBody, file, `${at}/requestBody`, warnings),
    responses: responses(doc, raw.responses, file, `${at}/responses`, warnings),
    security: security(raw.security ?? doc.security ?? [], `${at}/security`, warnings),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === "string") : [],
    extensions: Object.fromEntries(Object.entries(raw).filter(([key]) => key.startsWith("x-"))),
  };
}

/** Stable name for operations without an operationId: method + path words, e.g. getBooksByBookId. */
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

/** A success of the operation answers an `ETag` header. */
export const answersEtag = (op: Operation) =>
  op.responses.some((r) => /^2/.test(r.status) && r.headers.some((h) => h.name.toLowerCase() === "etag"));

/** A string as a TypeScript string literal. */
export const quote = (s: string) => JSON.stringify(s);

/** A tag as a JavaScript identifier (what generated code names its imports of a tag's modules). */
export const ident = (tag: string) => tag.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^(\d)/, "_$1");

/** A name as an object or interface property key: bare when it is an identifier, quoted otherwise. */
export const prop = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name));

/** camelCase identifier from any text: "get /a-b/{c}" → "getABC". */
export function identifier(text: string): string {
  const parts = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = parts
    .map((p, i) => (i === 0 ? p[0].toLowerCase() + p.slice(1) : p[0].toUpperCase() + p.slice(1)))
    .join("");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel || "_";
}

function toRoutePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => `:${routeParamName(name)}`);
}

/**
 * A path template parameter the operation does not declare is declared here as a raw string (and in the document,
 * so the handler's type has it too), with a warning.
 */
function declarePathParameters(path: string, parameters: Parameter[], raw: JsonObject, at: string, warnings: Warnings) {
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (parameters.some((p) => p.in === "path" && p.name === name)) continue;
    warnings.add("path-parameter", at, `path parameter "${name}" of ${path} is not declared: read as a string`);
    const declared = { name, in: "path", required: true, schema: { type: "string" } };
    raw.parameters = [...(Array.isArray(raw.parameters) ? raw.parameters : []), declared];
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: declared.schema,
      type: "string",
      style: "simple",
      explode: false,
    });
  }
}

/** @koa/router (path-to-regexp 8) needs identifier-like names. */
const routeParamName = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_");

function requestBody(
  doc: JsonObject,
  raw: Json | undefined,
  file: string,
  at: string,
  warnings: Warnings,
): RequestBody | undefined {
  const found =
    raw === undefined ? undefined : derefOrWarn(doc, raw, file, at, warnings, "request-body", "requestBody");
  if (!found) return undefined;
  const { value, pointer } = found;
  const content = normalizedContent(value, `${pointer}/content`, warnings);
  if (!content || Object.keys(content).length === 0) {
    warnings.add("request-body", pointer, "requestBody without content: ignored");
    return undefined;
  }
  const schemas = mediaSchemas(content);
  const body: RequestBody = { required: value.required === true, contentTypes: Object.keys(schemas), schemas };
  const raws: string[] = [];
  for (const type of body.contentTypes) {
    const schemaAt = `${pointer}/content/${escapePointer(type)}/schema`;
    const degrade = (why: string) => {
      warnings.add("raw-body", `${pointer}/content/${escapePointer(type)}`, `${type} body: ${why}`);
      raws.push(type);
    };
    try {
      const kind = bodyKind(type);
      if (kind === "form") body.form = formFields(doc, schemas[type], file, schemaAt);
      else if (kind === "multipart")
        body.multipart = multipartFields(doc, schemas[type], content[type], file, schemaAt);
      else if (kind === "text" && /xml/.test(type))
        degrade("XML is not parsed: the handler gets the text, not validated against the schema");
      else if (kind === "text" && !["string", "none"].includes(schemaType(doc, schemas[type], file, schemaAt)))
        degrade("a text body whose schema is not a string: the handler gets the text, unvalidated");
    } catch (error) {
      if (!(error instanceof Degraded || error instanceof SpecError)) throw error;
      if (bodyKind(type) === "form") body.form = {};
      degrade(
        `${error instanceof SpecError ? error.reason : error.message}; the handler gets its fields as raw strings, unvalidated`,
      );
    }
  }
  if (raws.length > 0) body.raw = raws;
  return body;
}

/**
 * A media type map with its keys as the runtime compares them (lower case, no parameters): "application/json;
 * charset=utf-8" would otherwise never match a request. Rewritten in the document, so the types use the same keys.
 */
function normalizedContent(holder: JsonObject, at: string, warnings: Warnings): JsonObject | undefined {
  if (!isObject(holder.content)) return undefined;
  const content: JsonObject = {};
  let changed = false;
  for (const [type, media] of Object.entries(holder.content)) {
    const key = mediaType(type);
    if (key !== type) changed = true;
    if (key in content)
      warnings.add("media-type", `${at}/${escapePointer(type)}`, `media type "${type}" repeats "${key}": ignored`);
    else content[key] = media;
  }
  if (changed) holder.content = content;
  return content;
}

function mediaSchemas(content: JsonObject): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const [type, media] of Object.entries(content)) schemas[type] = isObject(media) ? (media.schema ?? {}) : {};
  return schemas;
}

/** The object schema's properties, through $refs and allOf (how real documents compose form bodies). */
function propertiesOf(doc: JsonObject, schema: Json, file: string, at: string, depth = 0): Record<string, Json> {
  if (!isObject(schema) || depth > 10) return {};
  const s = schema.$ref ? deref(doc, schema, file, at).value : schema;
  const own = isObject(s.properties) ? s.properties : {};
  const parts = Array.isArray(s.allOf) ? s.allOf : [];
  return Object.assign({}, ...parts.map((p, i) => propertiesOf(doc, p, file, `${at}/allOf/${i}`, depth + 1)), own);
}

function formFields(doc: JsonObject, schema: Json, file: string, at: string): Record<string, FormField> {
  const fields: Record<string, FormField> = {};
  for (const [name, sub] of Object.entries(propertiesOf(doc, schema, file, at))) {
    const where = `${at}/properties/${escapePointer(name)}`;
    const type = schemaType(doc, sub, file, where);
    if (type === "object") throw new Degraded(`field "${name}" is an object, which form-urlencoded cannot carry`);
    if (type !== "array") {
      fields[name] = { type };
      continue;
    }
    const items = schemaType(doc, resolved(doc, sub, file, where).items ?? {}, file, `${where}/items`);
    if (items === "array" || items === "object")
      throw new Degraded(`field "${name}" is an array of ${items}s, which form-urlencoded cannot carry`);
    fields[name] = { type, items };
  }
  return fields;
}

const resolved = (doc: JsonObject, schema: Json, file: string, at: string): JsonObject =>
  isObject(schema) && schema.$ref ? deref(doc, schema, file, at).value : isObject(schema) ? schema : {};

/** A file part: binary content (3.0 `format: binary`, 3.1 `contentMediaType` without `contentEncoding`). */
function isFile(schema: JsonObject): boolean {
  return schema.format === "binary" || (schema.contentMediaType !== undefined && schema.contentEncoding === undefined);
}

/** A file part's maxLength (its size in bytes): the runtime stops reading past it (413), as past the body limit. */
const maxBytes = (schema: JsonObject) =>
  typeof schema.maxLength === "number" && schema.maxLength >= 0 ? { maxBytes: schema.maxLength } : {};

/**
 * How each part of a multipart/form-data body is read: files (one, or many for an array of files) with the media
 * types `encoding` allows and their size limit; objects and arrays of them as JSON (OpenAPI's default for complex values); scalars and
 * arrays of scalars (repeated parts) coerced like form fields.
 */
function multipartFields(
  doc: JsonObject,
  schema: Json,
  media: Json,
  file: string,
  at: string,
): Record<string, MultipartField> {
  const encoding = isObject(media) && isObject(media.encoding) ? media.encoding : {};
  const fields: Record<string, MultipartField> = {};
  for (const [name, sub] of Object.entries(propertiesOf(doc, schema, file, at))) {
    const where = `${at}/properties/${escapePointer(name)}`;
    const s = resolved(doc, sub, file, where);
    const enc = isObject(encoding[name]) ? encoding[name] : {};
    const allowed =
      typeof enc.contentType === "string"
        ? enc.contentType
            .split(",")
            .map((t) => t.trim().toLowerCase())
            .filter(Boolean)
        : [];
    const accept = allowed.length > 0 ? { contentTypes: allowed } : {};
    const type = schemaType(doc, s, file, where);
    const items = type === "array" ? resolved(doc, s.items ?? {}, file, `${where}/items`) : undefined;
    if (isFile(s)) fields[name] = { type: "file", ...accept, ...maxBytes(s) };
    else if (items && isFile(items)) fields[name] = { type: "files", ...accept, ...maxBytes(items) };
    else if (
      type === "object" ||
      (items && ["array", "object"].includes(schemaType(doc, items, file, `${where}/items`)))
    )
      fields[name] = { type: "json" };
    else if (type === "array")
      fields[name] = { type, items: schemaType(doc, items!, file, `${where}/items`) as Scalar };
    else fields[name] = { type };
  }
  return fields;
}

function responses(
  doc: JsonObject,
  raw: Json | undefined,
  file: string,
  at: string,
  warnings: Warnings,
): ResponseSpec[] {
  const list: ResponseSpec[] = [];
  for (const [key, entry] of Object.entries(isObject(raw) ? raw : {})) {
    if (key.startsWith("x-")) continue;
    const status = /^[1-5]xx$/i.test(key) ? key.toUpperCase() : key;
    if (!/^([1-5](\d\d|XX)|default)$/.test(status)) {
      warnings.add(
        "response",
        `${at}/${escapePointer(key)}`,
        `"${key}" is not a status code, a range like 2XX, or default: this response is ignored`,
      );
      continue;
    }
    if (status !== key && isObject(raw)) {
      // The types read the document: the range under the key the runtime uses.
      raw[status] = entry;
      delete raw[key];
    }
    try {
      const { value, pointer } = deref(doc, entry, file, `${at}/${status}`);
      const headers = Object.entries(isObject(value.headers) ? value.headers : {}).flatMap(([name, h]) => {
        if (name.toLowerCase() === "content-type") return []; // OpenAPI ignores it: the media type says it
        try {
          return [
            { name, required: resolved(doc, h, file, `${pointer}/headers/${escapePointer(name)}`).required === true },
          ];
        } catch (error) {
          if (!(error instanceof SpecError)) throw error;
          warnings.add("response", error.pointer, `response header "${name}" ignored: ${error.reason}`);
          return [];
        }
      });
      const content = normalizedContent(value, `${pointer}/content`, warnings);
      const schemas = content ? mediaSchemas(content) : {};
      list.push({ status, contentTypes: Object.keys(schemas), headers, schemas });
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      warnings.add("response", error.pointer, `response ${status} ignored: ${error.reason}`);
    }
  }
  if (list.length === 0) {
    warnings.add(
      "responses",
      at,
      `${raw === undefined ? "no responses declared" : "no usable response declared"}: the handler may answer any status, without a body`,
    );
    list.push({ status: "default", contentTypes: [], headers: [], schemas: {} });
  }
  return list;
}

/** Malformed requirements fail closed: a scheme no authorizer knows, so the operation is never public by mistake. */
function security(raw: Json, at: string, warnings: Warnings): SecurityRequirement[][] {
  const closed = (pointer: string, why: string) => {
    warnings.add("security", pointer, `${why}: the operation requires an unknown scheme, so every call is refused`);
    return [{ scheme: "(invalid security requirement)", scopes: [] }];
  };
  if (!Array.isArray(raw)) return [closed(at, "security must be an array")];
  return raw.map((alternative, i) => {
    if (!isObject(alternative)) return closed(`${at}/${i}`, "a security requirement must be an object");
    return Object.entries(alternative).map(([scheme, scopes]) => ({
      scheme,
      scopes: Array.isArray(scopes) ? scopes.map(String) : [],
    }));
  });
}

/**
 * An operation served from the GraphQL subscription it pairs with (x-graphql: Subscription.<field>): Twinspec's
 * runtime runs the subscription and writes each payload as a Server-Sent Event; no handler is written for it.
 */
export function isEventStream(op: Pick<Operation, "responses" | "extensions">): boolean {
  const target = op.extensions["x-graphql"];
  return typeof target === "string" && target.startsWith("Subscription.");
}

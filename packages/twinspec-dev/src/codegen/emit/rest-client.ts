// Emits a client's rest.ts: the REST SDK of one OpenAPI document. A table of what the runtime acts on per operation
// (method, path, whether a retry is safe, the Idempotency-Key header, the body's media type, the declared response
// headers, where a Link page holds its items, the resources it reads and writes), the operations' types from
// openapi-typescript's `paths`, and `createRestClient`, a method per operationId over twinspec-client's runtime.
import type { Operation } from "../model/operations.js";
import { prop, quote } from "../model/operations.js";
import { deref, isObject, type Json, type JsonObject } from "../load/spec.js";
import { EVENT_STREAM } from "twinspec/internals";

/** twinspec-client's own methods on the client object: an operation of the same name is renamed. */
const HELPERS = new Set(["paginate", "nextPage", "waitFor", "events"]);

const CLIENT_RUNTIME = "twinspec-client";

interface SdkOperation {
  name: string;
  operation: Operation;
}

/** The method name of each operation: its operationId, unless twinspec-client's helpers already use it. */
function sdkNames(operations: Operation[]): SdkOperation[] {
  const taken = new Set(operations.map((o) => o.operationId));
  return operations.map((operation) => {
    let name = operation.operationId;
    while (HELPERS.has(name) || (name !== operation.operationId && taken.has(name))) name = `${name}Operation`;
    return { name, operation };
  });
}

export function restClient(doc: JsonObject, operations: Operation[], file = ""): string {
  const ops = sdkNames(operations);
  const idOwners = resourceIds(doc);
  const types = ops.map(({ name, operation: o }) => `  ${prop(name)}: paths[${quote(o.path)}][${quote(o.method)}];`);
  const table = ops.map(({ name, operation: o }) => `  ${prop(name)}: ${specOf(doc, o, idOwners, file)},`);
  return `import { createRestRuntime, type OperationTable, type RestClient, type RestClientOptions } from "${CLIENT_RUNTIME}";
import type { paths } from "./openapi.js";

/** Each operation's types (parameters, body, responses), by the name of its method. */
export interface Operations {
${types.join("\n")}
}

/** What the runtime acts on, per operation: read from the spec. */
export const operations = {
${table.join("\n")}
} as const satisfies OperationTable<Operations>;

export type RestApi = RestClient<Operations, typeof operations>;

/** The typed REST client: \`api.<operationId>({ path, query, headers, body })\` → \`{ status, body, headers }\`. */
export function createRestClient(options: RestClientOptions): RestApi {
  return createRestRuntime<Operations, typeof operations>(operations, options);
}
`;
}

function specOf(doc: JsonObject, o: Operation, idOwners: Map<string, string>, file: string): string {
  const method = o.method.toUpperCase();
  const key = o.parameters.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
  const retry = ["GET", "HEAD", "OPTIONS"].includes(method)
    ? "safe"
    : ["PUT", "DELETE"].includes(method)
      ? "idempotent"
      : key
        ? "key"
        : "never";
  const headers = [...new Set(o.responses.flatMap((r) => r.headers.map((h) => h.name)))];
  const body = o.requestBody
    ? (o.requestBody.contentTypes.find((t) => /[/+]json\b/.test(t)) ?? o.requestBody.contentTypes[0])
    : undefined;
  const tags = o.tags.length ? o.tags : [o.path.split("/").find((s) => s && !s.startsWith("{")) ?? "root"];
  const parents = o.parameters.filter((p) => p.in === "path").flatMap((p) => idOwners.get(p.name) ?? []);
  const reads = [...new Set([...tags, ...parents])];
  const fields: string[] = [`method: ${quote(method)}`, `path: ${quote(o.path)}`, `retry: ${quote(retry)}`];
  if (key) fields.push(`idempotencyKey: ${quote(key.name)}`);
  if (body) fields.push(`body: ${quote(body)}`);
  if (headers.length) fields.push(`headers: ${JSON.stringify(headers)}`);
  const items = headers.some((h) => h.toLowerCase() === "link") ? pageItems(doc, o, file) : undefined;
  if (items !== undefined) fields.push(`items: ${quote(items)}`);
  if (o.responses.some((r) => r.status === "200" && r.contentTypes.includes(EVENT_STREAM))) fields.push("events: true");
  fields.push(`reads: ${JSON.stringify(reads)}`);
  // The resources a successful call changes (none for a safe one): what TanStack invalidates, and what a GraphQL
  // mutation paired with it invalidates too (documents.ts refers to it).
  fields.push(`writes: ${JSON.stringify(retry === "safe" ? [] : tags)}`);
  return `{ ${fields.join(", ")} }`;
}

/** A Link-paged operation's items: the 200 body itself when it is an array, else its one array property ("items" first). */
function pageItems(doc: JsonObject, o: Operation, file: string): string | undefined {
  const ok = o.responses.find((r) => r.status === "200" || r.status === "2XX");
  const type = ok?.contentTypes.find((t) => /[/+]json\b/.test(t));
  if (!ok || !type) return undefined;
  const schema = resolve(doc, ok.schemas[type], file);
  if (!schema) return undefined;
  if (isArray(schema)) return "";
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const arrays = properties.filter(([, s]) => isArray(resolve(doc, s, file))).map(([name]) => name);
  return arrays.includes("items") ? "items" : arrays.length === 1 ? arrays[0] : undefined;
}

const isArray = (schema: JsonObject | undefined) =>
  schema?.type === "array" || (Array.isArray(schema?.type) && schema.type.includes("array"));

function resolve(doc: JsonObject, schema: Json | undefined, file: string): JsonObject | undefined {
  if (!isObject(schema)) return undefined;
  try {
    return deref(doc, schema, file, "").value;
  } catch {
    return undefined;
  }
}

/** The path parameter that names each resource (x-resource.id of a tag) → that resource's tag. */
function resourceIds(doc: JsonObject): Map<string, string> {
  const owners = new Map<string, string>();
  for (const tag of Array.isArray(doc.tags) ? doc.tags : []) {
    if (!isObject(tag) || typeof tag.name !== "string" || !isObject(tag["x-resource"])) continue;
    const id = tag["x-resource"].id;
    if (typeof id === "string") owners.set(id, tag.name);
  }
  return owners;
}

// What the tests that walk every operation and root field need, read from the specs alone: each operation's sample
// body (its requestBody example), the resources and who owns them (x-resource), and a "world" — one instance of
// every resource, made through the API the way a client would (the operation that answers 201/202 with that
// resource), and what the PUTs of paths beside them set (a customer's avatar). A new resource in the specs is walked without editing anything here.
import { buildSchema, type GraphQLField, type GraphQLSchema } from "graphql";
import { graphqlInputs, graphqlOwnership, pairs, resources, restOwnership, type ResourceTag } from "../../generated/contract.js";
import { operationSpecs } from "../../generated/rest.js";
import { isObject, loadDocument, type JsonObject } from "../../packages/twinspec/src/codegen/spec.js";
import type { OperationSpec } from "../../packages/twinspec/src/http/rest-runtime.js";
import { loadTypeDefs } from "../../packages/twinspec/src/graphql/schema.js";
import { call } from "./server.js";

export { graphqlInputs, graphqlOwnership, pairs, resources, restOwnership };
export type Operation = OperationSpec;
export const operations = operationSpecs;
export const graphqlSchema: GraphQLSchema = buildSchema(loadTypeDefs());

const doc = loadDocument("openapi.yaml");
const rawOperation = (op: Operation): JsonObject => {
  const item = (doc.paths as JsonObject)[op.path] as JsonObject;
  return item[op.method.toLowerCase()] as JsonObject;
};

/** The operation's request body example (openapi.yaml requestBody content example), with its media type. */
export function sampleBody(op: Operation): { type: string; body: unknown } | undefined {
  const body = rawOperation(op).requestBody;
  if (!isObject(body) || !isObject(body.content)) return undefined;
  for (const [type, media] of Object.entries(body.content)) if (isObject(media) && media.example !== undefined) return { type, body: structuredClone(media.example) };
  return undefined;
}

/** A value for each argument the field needs: ids by name, else the paired operation's sample body (or its properties). */
export function argumentValues(root: string, field: GraphQLField<unknown, unknown>, ids: Record<string, string>): Record<string, unknown> {
  const rules = graphqlInputs[`${root}.${field.name}`];
  const op = rules && operations.find((o) => o.operationId === rules.operationId);
  const sample = op ? (sampleBody(op)?.body as Record<string, unknown> | undefined) : undefined;
  const values: Record<string, unknown> = {};
  for (const a of field.args) {
    if (a.name in ids) values[a.name] = ids[a.name];
    else if (rules?.body && "arg" in rules.body && rules.body.arg === a.name) values[a.name] = sample;
    else if (sample && a.name in sample) values[a.name] = sample[a.name];
  }
  return values;
}

export const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
export const declares = (op: Operation, status: number) => String(status) in op.responses;
export const urlOf = (op: Operation, ids: Record<string, string>) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]));
export const resourceOfParam = (name: string) => (Object.entries(resources) as [ResourceTag, (typeof resources)[ResourceTag]][]).find(([, r]) => r.id === name);

/**
 * A multipart/form-data body from an example object: each file part (as the operation reads it) a file of the
 * example string's bytes (one character, one byte) in the first media type its encoding allows; other parts text.
 */
function formData(op: Operation, example: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example)) {
    const part = op.body?.multipart?.[name];
    if (part?.type === "file" || part?.type === "files") {
      for (const file of [value].flat()) form.append(name, new Blob([Buffer.from(String(file), "latin1")], { type: part.contentTypes?.[0] ?? "application/octet-stream" }), name);
    } else {
      form.append(name, typeof value === "string" ? value : JSON.stringify(value));
    }
  }
  return form;
}

/** Sends the operation with its sample body (or `body`), to the instances `ids` names. */
export function send(base: string, op: Operation, ids: Record<string, string>, init: { headers?: Record<string, string>; body?: unknown; raw?: string; token?: string | null } = {}) {
  const sample = sampleBody(op);
  const body = init.raw ?? (init.body ?? sample?.body);
  // fetch writes a form's Content-Type itself: it carries the boundary.
  const form = init.raw === undefined && sample?.type === "multipart/form-data" && isObject(body) ? formData(op, body) : undefined;
  const headers: Record<string, string> = { ...(sample && !form ? { "content-type": sample.type } : {}), ...init.headers };
  if (init.token !== undefined && init.token !== null) headers.authorization = `Bearer ${init.token}`;
  return call(`${base}${urlOf(op, ids)}`, {
    method: op.method,
    body: form ?? (body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)),
    headers,
    anonymous: init.token === null,
    redirect: "manual",
  });
}

/** The operation that makes a resource: it answers 201 or 202 with a Location, its body that resource's schema (POST first). */
export function creatorOf(resource: ResourceTag): Operation {
  const schema = `#/components/schemas/${resources[resource].schema}`;
  const answersWith = (op: Operation) =>
    Object.entries(rawOperation(op).responses as JsonObject).some(([status, r]) => {
      if (status !== "201" && status !== "202") return false;
      const response = (isObject(r) && typeof r.$ref === "string" ? resolveRef(r.$ref) : r) as JsonObject;
      return JSON.stringify(response.content ?? {}).includes(`"${schema}"`);
    });
  const found = operations.filter(answersWith).sort((a, b) => Number(b.method === "POST") - Number(a.method === "POST"))[0];
  if (!found) throw new Error(`no operation of openapi.yaml creates ${resource} (201/202 with ${resources[resource].schema})`);
  return found;
}

const resolveRef = (ref: string) => ref.slice(2).split("/").reduce<unknown>((node, key) => (node as JsonObject)[key], doc);

/**
 * The PUTs that set what a path holds beside the resources (a customer's avatar): a path that is no resource's own,
 * with a GET and a PUT. The world sets each, so that its GET has something to read.
 */
const singletonWriters = operations.filter(
  (op) => op.method === "PUT" && !Object.values(resources).some((r) => r.path === op.path) && operations.some((o) => o.method === "GET" && o.path === op.path),
);

/** Resources owned by nobody's id but their own: the principals other resources belong to. */
const principals = (Object.keys(resources) as ResourceTag[]).filter((r) => resources[r].owner === "self");

/**
 * One live instance of every resource, made over the API with the admin token: every instance belongs to `owner`
 * (an instance of the self-owned resource), each made with fresh dependencies, except that owner. Jobs and other
 * asynchronous results are settled (their representation no longer changes). `other` is a second owner.
 */
export async function newWorld(base: string) {
  const ids: Record<string, string> = {};
  const make = async (resource: ResourceTag, given: Record<string, string>): Promise<string> => {
    const op = creatorOf(resource);
    const needed: Record<string, string> = { ...given };
    for (const param of pathParams(op.path)) {
      if (needed[param]) continue;
      const dependency = resourceOfParam(param);
      if (!dependency) throw new Error(`${op.operationId}: cannot tell which resource ${param} names`);
      needed[param] = await make(dependency[0], given);
    }
    const res = await send(base, op, needed);
    if (res.status !== 201 && res.status !== 202) throw new Error(`making ${resource} with ${op.operationId}: ${res.status} ${res.text}`);
    const location = res.headers.get("location")!;
    if (res.status === 202) await settle(base, location);
    return res.json[resources[resource].id] ?? decodeURIComponent(location.split("/").pop()!);
  };
  const owners: Record<string, string> = {};
  for (const principal of principals) owners[resources[principal].id] = ids[resources[principal].id] = await make(principal, {});
  for (const resource of Object.keys(resources) as ResourceTag[]) {
    if (!ids[resources[resource].id]) ids[resources[resource].id] = await make(resource, owners);
  }
  for (const op of singletonWriters) {
    const res = await send(base, op, ids);
    if (res.status >= 300) throw new Error(`setting ${op.path} with ${op.operationId}: ${res.status} ${res.text}`);
  }
  const other: Record<string, string> = {};
  for (const principal of principals) other[resources[principal].id] = await make(principal, {});
  const ownerId = principals.length ? ids[resources[principals[0]].id] : "";
  const otherId = principals.length ? other[resources[principals[0]].id] : "";
  return { ids, owner: ownerId, other: otherId };
}

/** Polls a status monitor until its representation stops changing (the same ETag five reads running, 200 ms). */
export async function settle(base: string, url: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  let last = "";
  let same = 0;
  for (;;) {
    const res = await call(`${base}${url}`);
    const tag = res.headers.get("etag") ?? res.text;
    same = tag === last ? same + 1 : 0;
    if (same >= 4) return res.json;
    last = tag;
    if (Date.now() > until) throw new Error(`${url} still changes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

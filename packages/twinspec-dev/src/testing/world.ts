// What the test kit reads from an application's specs alone: each operation's sample body (its requestBody example),
// the operation that makes each resource, and a "world" — one instance of every resource, made over the API the way a
// client would (owners first; a body property named like a resource's id gets a real one, made before).
import type { AppDefinition } from "twinspec/internals";
import type { OperationSpec } from "twinspec/internals";
import { isObject, type JsonObject } from "../codegen/load/spec.js";

import type { Reply } from "./client.js";

export type Send = (
  op: OperationSpec,
  ids: Record<string, string>,
  init?: { token?: string | null; body?: unknown },
) => Promise<Reply>;

const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
export const urlOf = (op: OperationSpec, ids: Record<string, string>) =>
  op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? `${name}-unknown`));

export function specReader(doc: JsonObject) {
  const raw = (op: OperationSpec): JsonObject =>
    ((doc.paths as JsonObject)[op.path] as JsonObject)[op.method.toLowerCase()] as JsonObject;
  const resolveRef = (ref: string) =>
    ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as JsonObject)[key], doc);
  const deref = (node: unknown) =>
    (isObject(node) && typeof node.$ref === "string" ? resolveRef(node.$ref) : node) as JsonObject;
  return {
    /** the operation's request body example, with its media type */
    sampleBody(op: OperationSpec): { type: string; body: unknown } | undefined {
      const body = deref(raw(op).requestBody);
      if (!isObject(body) || !isObject(body.content)) return undefined;
      for (const [type, media] of Object.entries(body.content))
        if (isObject(media) && media.example !== undefined) return { type, body: structuredClone(media.example) };
      return undefined;
    },
    /** whether `op` answers 201 or 202 with the schema `schema` */
    creates(op: OperationSpec, schema: string): boolean {
      return Object.entries(raw(op).responses as JsonObject).some(
        ([status, r]) =>
          (status === "201" || status === "202") &&
          JSON.stringify(deref(r).content ?? {}).includes(`"#/components/schemas/${schema}"`),
      );
    },
  };
}

/**
 * One live instance of every resource that can be made (its creator is implemented), made with the admin token;
 * `ids` maps each resource's id property to its instance, `missing` names the resources that could not be made.
 */
export async function newWorld(
  definition: Pick<AppDefinition, "operationSpecs" | "contract">,
  reader: ReturnType<typeof specReader>,
  send: Send,
) {
  const { resources } = definition.contract;
  const ids: Record<string, string> = {};
  const missing = new Map<string, string>();
  const byIdName = new Map(Object.entries(resources).map(([tag, r]) => [r.id, tag]));
  const creatorOf = (tag: string) =>
    definition.operationSpecs
      .filter((op) => reader.creates(op, resources[tag].schema))
      .sort((a, b) => Number(b.method === "POST") - Number(a.method === "POST"))[0];
  const making = new Set<string>();
  const make = async (tag: string): Promise<string | undefined> => {
    const idName = resources[tag].id;
    if (ids[idName] || missing.has(tag)) return ids[idName];
    const op = creatorOf(tag);
    if (!op) return void missing.set(tag, `no operation answers 201/202 with ${resources[tag].schema}`);
    if (making.has(tag)) return void missing.set(tag, `${op.operationId} needs a ${tag} to make one`);
    making.add(tag);
    // What the path and the body name of other resources is made first.
    const sample = reader.sampleBody(op)?.body;
    const named = [...pathParams(op.path), ...(isObject(sample) ? Object.keys(sample) : [])].filter(
      (name) => name !== idName && byIdName.has(name),
    );
    for (const name of named) await make(byIdName.get(name)!);
    const body = isObject(sample)
      ? Object.fromEntries(
          Object.entries(sample).map(([k, v]) => [k, byIdName.has(k) && k !== idName && ids[k] ? ids[k] : v]),
        )
      : sample;
    const res = await send(op, ids, { body });
    making.delete(tag);
    if (res.status !== 201 && res.status !== 202)
      return void missing.set(tag, `${op.operationId} answered ${res.status}`);
    const location = res.headers.get("location") ?? "";
    return (ids[idName] = res.json?.[idName] ?? decodeURIComponent(location.split("/").pop() ?? ""));
  };
  // Owners first: instances of self-owned resources are what the others belong to.
  const tags = Object.keys(resources).sort(
    (a, b) => Number(resources[b].owner === "self") - Number(resources[a].owner === "self"),
  );
  for (const tag of tags) await make(tag);
  return { ids, missing, byIdName };
}

// The webhooks openapi.yaml declares (OpenAPI 3.1's `webhooks:`): each is an event the service POSTs to the URLs its
// callers registered. Its name is the event's type in the durable event log; its POST's x-graphql names the
// subscription field carrying the same event; its JSON body is the Standard Webhooks envelope `{ type, timestamp,
// data }`, whose `data` is the event's payload. The payload is compared with the field's type by spec-agreement.ts;
// here, what the delivery needs: who owns an event (the subscription's owner, named by a property of the payload,
// and the same as the paired REST event stream's) and the scopes to register for it (the field's @auth). Its POST's
// x-emitted-by names the REST operations whose success emits the event (the test kit triggers it through them; their
// paired GraphQL mutations emit it too): checked here to name operations that change something.
import { getDirectiveValues, type GraphQLField, type GraphQLSchema } from "graphql";
import { deref, escapePointer, isObject, type Json, type JsonObject } from "../load/spec.js";
import type { Resource } from "./resource.js";

export interface Webhook {
  /** its key under `webhooks:`: the event's type in the log */
  name: string;
  /** the subscription field carrying the same event */
  field: string;
  /** the payload (the body's `data`), as written */
  payload: Json;
  /** whose event it is: the owned resource, and the payload's property naming its instance ("none": nobody's) */
  owner: { resource: string; by: string } | "none";
  /** the scopes a token needs to register for it (the field's @auth) */
  scopes: string[];
  /** the operationIds whose success emits the event (x-emitted-by; empty when it names none) */
  emittedBy: string[];
}

/** "Type.field" → the first tag of the webhook whose x-graphql names it ("" when it has none). */
export function webhookTargets(doc: JsonObject): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of Object.values(isObject(doc.webhooks) ? doc.webhooks : {})) {
    const post = isObject(item) ? item.post : undefined;
    if (isObject(post) && typeof post["x-graphql"] === "string")
      out.set(post["x-graphql"], Array.isArray(post.tags) && typeof post.tags[0] === "string" ? post.tags[0] : "");
  }
  return out;
}

/** The subscription field's ownership (model/contract.ts), as far as the webhook needs it. */
type FieldOwner = { kind: "instance"; resource: string; from: string } | { kind: string };

/** Every webhook of `doc`, and what is wrong with each one that cannot be delivered. */
export function readWebhooks(
  doc: JsonObject,
  schema: GraphQLSchema,
  resources: readonly Resource[],
  ownership: (coordinate: string) => FieldOwner | undefined,
  operations: readonly { operationId: string; method: string }[],
  file: string,
  problem: (pointer: string, message: string) => void,
): Webhook[] {
  if (doc.webhooks === undefined) return [];
  if (!isObject(doc.webhooks))
    return (void problem("/webhooks", "webhooks must map each event's type to a path item with one post"), []);
  const out: Webhook[] = [];
  const paired = new Map<string, string>();
  const subscription = schema.getSubscriptionType();
  for (const [name, rawItem] of Object.entries(doc.webhooks)) {
    const at = `/webhooks/${escapePointer(name)}`;
    const item = deref(doc, rawItem, file, at).value;
    const post = item.post;
    const others = Object.keys(item).filter((k) =>
      ["get", "put", "delete", "patch", "options", "head", "trace"].includes(k),
    );
    if (!isObject(post) || others.length) {
      problem(
        at,
        `webhook ${name}: a delivery is one POST to the receiver: declare post only${others.length ? ` (not ${others.join(", ")})` : ""}`,
      );
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(name))
      problem(
        at,
        `webhook ${name}: its name is the event's type: letters, digits and _ . : - (64 at most), starting with a letter`,
      );
    const target = post["x-graphql"];
    const fieldName =
      typeof target === "string" && subscription && target.startsWith(`${subscription.name}.`)
        ? target.slice(subscription.name.length + 1)
        : undefined;
    const field = fieldName === undefined ? undefined : subscription?.getFields()[fieldName];
    if (!field) {
      problem(
        `${at}/post`,
        `webhook ${name}: x-graphql must name the subscription field carrying the same event (${subscription?.name ?? "Subscription"}.<field>)${typeof target === "string" ? `; ${target} is not one` : ""}`,
      );
      continue;
    }
    if (paired.has(field.name))
      problem(
        `${at}/post`,
        `webhook ${name}: ${subscription!.name}.${field.name} already pairs with webhook ${paired.get(field.name)}`,
      );
    paired.set(field.name, name);
    const payload = envelopeData(doc, post, file, `${at}/post`, (message) =>
      problem(`${at}/post/requestBody`, `webhook ${name}: ${message}`),
    );
    if (payload === undefined) continue;
    if (
      !Object.entries(isObject(post.responses) ? post.responses : {}).some(([status]) => /^2(\d\d|XX)$/.test(status))
    ) {
      problem(`${at}/post/responses`, `webhook ${name}: declare the 2xx a receiver answers once it has the event`);
    }
    const owner = webhookOwner(
      doc,
      payload,
      ownership(`${subscription!.name}.${field.name}`),
      resources,
      file,
      `${at}/post/requestBody`,
      (message) => problem(`${at}/post/requestBody`, `webhook ${name}: ${message}`),
    );
    const emittedBy = emitters(post["x-emitted-by"], operations, (message) =>
      problem(`${at}/post/x-emitted-by`, `webhook ${name}: ${message}`),
    );
    out.push({ name, field: field.name, payload, owner, scopes: authScopes(schema, field), emittedBy });
  }
  return out;
}

/** x-emitted-by: operationIds of operations that change something (not GET, HEAD or OPTIONS), each once. */
function emitters(
  value: Json | undefined,
  operations: readonly { operationId: string; method: string }[],
  problem: (message: string) => void,
): string[] {
  if (value === undefined) return [];
  const ids = Array.isArray(value) ? value : [value];
  if (!ids.length || !ids.every((id) => typeof id === "string"))
    return (void problem("x-emitted-by lists the operationIds whose success emits the event"), []);
  const out: string[] = [];
  for (const id of ids) {
    const op = operations.find((o) => o.operationId === id);
    if (!op) problem(`x-emitted-by names ${id}, which is no operation of openapi.yaml`);
    else if (["get", "head", "options"].includes(op.method.toLowerCase()))
      problem(
        `x-emitted-by names ${id}, a ${op.method.toUpperCase()}: an event is emitted by an operation that changes something`,
      );
    else if (out.includes(id)) problem(`x-emitted-by names ${id} twice`);
    else out.push(id);
  }
  return out;
}

/** The `data` of the JSON body's envelope `{ type, timestamp, data }` (Standard Webhooks' payload shape). */
function envelopeData(
  doc: JsonObject,
  post: JsonObject,
  file: string,
  at: string,
  problem: (message: string) => void,
): Json | undefined {
  const body =
    post.requestBody === undefined ? undefined : deref(doc, post.requestBody, file, `${at}/requestBody`).value;
  const media = isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  const schema =
    isObject(media) && media.schema !== undefined
      ? deref(doc, media.schema, file, `${at}/requestBody`).value
      : undefined;
  const props = schema && isObject(schema.properties) ? schema.properties : undefined;
  const required = new Set(Array.isArray(schema?.required) ? schema.required.map(String) : []);
  if (!props || !["type", "timestamp", "data"].every((k) => k in props && required.has(k))) {
    return void problem(
      "the body is application/json, the envelope { type, timestamp, data } (each required), with the event's payload as data",
    );
  }
  return props.data;
}

/** The payload's property naming the event's owner: the subscription field's owning argument, which it must carry. */
function webhookOwner(
  doc: JsonObject,
  payload: Json,
  owner: FieldOwner | undefined,
  resources: readonly Resource[],
  file: string,
  at: string,
  problem: (message: string) => void,
): Webhook["owner"] {
  if (!owner || owner.kind !== "instance" || !("from" in owner)) return "none";
  const value = deref(doc, payload, file, at).value;
  const required = new Set(Array.isArray(value.required) ? value.required.map(String) : []);
  if (!isObject(value.properties) || !(owner.from in value.properties) || !required.has(owner.from)) {
    problem(
      `the subscription is owned through its argument ${owner.from}: the payload must carry ${owner.from} (required), naming whose event it is`,
    );
  }
  if (!resources.some((r) => r.tag === owner.resource)) problem(`no resource ${owner.resource}`);
  return { resource: owner.resource, by: owner.from };
}

function authScopes(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): string[] {
  const auth = schema.getDirective("auth");
  const values = auth && field.astNode ? getDirectiveValues(auth, field.astNode) : undefined;
  return Array.isArray(values?.scopes) ? values.scopes.map(String) : [];
}

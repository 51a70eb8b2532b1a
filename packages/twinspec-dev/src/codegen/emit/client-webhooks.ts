// Emits client/generated/webhooks.ts, the receiving side of an application's webhooks: `parseWebhook` (twinspec-client's
// createWebhookParser) over each webhook's body schema, copied from openapi.yaml self-contained (every local $ref it
// reaches moved under $defs), and the bodies' types from openapi-typescript's `webhooks`.
import { at, escapePointer, isObject, type Json, type JsonObject } from "../load/spec.js";
import type { Webhook } from "../model/webhooks.js";
import { prop, quote } from "../model/operations.js";

/**
 * @param doc - the bundled openapi.yaml
 * @param webhooks - the declared webhooks (model/webhooks.ts), each with a JSON body
 */
export function clientWebhooks(doc: JsonObject, webhooks: readonly Webhook[]): string {
  const body = (name: string) =>
    `NonNullable<NonNullable<webhooks[${quote(name)}]["post"]>["requestBody"]>["content"]["application/json"]`;
  const schemas = webhooks.map(
    (w) => `  ${prop(w.name)}: ${JSON.stringify(selfContained(doc, bodySchema(doc, w.name)))},`,
  );
  return `import { createWebhookParser, type WebhookEvent as Event } from "twinspec-client";
import type { webhooks } from "./openapi.js";

/** Each declared webhook's body (the envelope \`{ type, timestamp, data }\`), by its event type. */
export interface WebhookBodies {
${webhooks.map((w) => `  ${prop(w.name)}: ${body(w.name)};`).join("\n")}
}

/** A verified delivery of one declared webhook (all by default): its \`id\` (webhook-id) and its body, discriminated on \`type\`. */
export type WebhookEvent<Type extends keyof WebhookBodies = keyof WebhookBodies> = Event<WebhookBodies, Type>;

/** Each webhook's body schema, as openapi.yaml declares it (what it refers to under $defs). */
const schemas = {
${schemas.join("\n")}
};

/**
 * Verifies a delivery (its Standard Webhooks signature, its timestamp, that its id is new) and checks its body against
 * the declared schema of the webhook its \`type\` names: \`parseWebhook(secret, headers, rawBody, seen?)\` returns any
 * declared webhook's (switch on \`type\`), \`parseWebhook.<type>(…)\` only that one's. Anything else throws
 * WebhookRefused, its \`reason\` "signature", "replay" or "payload".
 */
export const parseWebhook = createWebhookParser<WebhookBodies>(schemas);
`;
}

/** The webhook's JSON body schema, as written (a $ref or not). */
function bodySchema(doc: JsonObject, name: string): Json {
  const follow = (node: Json | undefined) => {
    let n = node;
    for (let hops = 0; isObject(n) && typeof n.$ref === "string" && hops < 50; hops++) n = at(doc, n.$ref);
    return n;
  };
  const item = follow((doc.webhooks as JsonObject)[name]);
  const post = isObject(item) ? follow(item.post) : undefined;
  const requestBody = isObject(post) ? follow(post.requestBody) : undefined;
  const content = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content : {};
  const media = content["application/json"];
  return isObject(media) && media.schema !== undefined ? media.schema : {};
}

/**
 * `schema` with every local $ref it reaches (through any number of them) copied under $defs: a component schema by
 * its name, anything else by its whole pointer.
 */
function selfContained(doc: JsonObject, schema: Json): Json {
  const defs: JsonObject = {};
  /** The name under $defs: a component schema's own, else the pointer (as a name: escaped in the $ref). */
  const keyOf = (pointer: string) => {
    const component = /^\/components\/schemas\/([^/]+)$/.exec(pointer)?.[1];
    return component === undefined ? pointer : component.replace(/~1/g, "/").replace(/~0/g, "~");
  };
  const pending: string[] = [];
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        if (k !== "$ref" || typeof v !== "string" || !v.startsWith("#/")) return [k, rewrite(v)];
        const key = keyOf(v.slice(1));
        if (!(key in defs)) {
          defs[key] = true; // claimed: a schema that refers to itself is copied once
          pending.push(v);
        }
        return [k, `#/$defs/${escapePointer(key)}`];
      }),
    );
  };
  const root = rewrite(schema);
  while (pending.length) {
    const ref = pending.shift()!;
    defs[keyOf(ref.slice(1))] = rewrite(at(doc, ref) ?? {});
  }
  if (!Object.keys(defs).length) return root;
  return isObject(root)
    ? { ...root, $defs: { ...(isObject(root.$defs) ? root.$defs : {}), ...defs } }
    : { allOf: [root], $defs: defs };
}

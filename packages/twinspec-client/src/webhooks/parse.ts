// Receiving the webhooks an application declares, typed: a generated client package builds its `parseWebhook` here
// from each webhook's body schema (openapi.yaml's, self-contained). A delivery is verified first (verify.ts:
// signature, timestamp, replay), then its body checked against the schema of the webhook its `type` names, by
// @cfworker/json-schema: it interprets the schema (no generated code, no eval), so it runs where receivers run,
// Node, workers and browsers alike, at a small fixed size.
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { verified, WebhookRefused, type SeenIds, type WebhookHeaders } from "./verify.js";

/** A webhook's body: the envelope `{ type, timestamp, data }` openapi.yaml declares. */
export interface WebhookEnvelope {
  type: string;
  timestamp: string;
  data: unknown;
}

/** Each webhook's body by its event type (a generated client package's WebhookBodies: an interface will do). */
export type WebhookBodies<Bodies = Record<string, WebhookEnvelope>> = { [Type in keyof Bodies]: WebhookEnvelope };

/** A verified delivery of one of `Bodies`' webhooks (all by default): its id (webhook-id) and its body. */
export type WebhookEvent<
  Bodies extends WebhookBodies<Bodies>,
  Type extends keyof Bodies = keyof Bodies,
> = Type extends keyof Bodies ? { id: string } & Bodies[Type] : never;

/** Verifies a delivery and returns it typed; throws WebhookRefused ("signature", "replay" or "payload") otherwise. */
export type ParseWebhook<Event> = (
  secret: string | string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  seen?: SeenIds,
) => Event;

/**
 * A client package's `parseWebhook`: called, it takes a delivery of any declared webhook (a union discriminated on
 * `type`); `parseWebhook.<type>` takes only that webhook's.
 */
export type WebhookParser<Bodies extends WebhookBodies<Bodies>> = ParseWebhook<WebhookEvent<Bodies>> & {
  readonly [Type in keyof Bodies]: ParseWebhook<WebhookEvent<Bodies, Type>>;
};

const MAX_LISTED = 3;

/**
 * The parser of the webhooks whose body schemas are `schemas` (what a generated client package calls).
 *
 * @param schemas - each webhook's body schema by its event type: JSON Schema 2020-12, every $ref inside it local
 */
export function createWebhookParser<Bodies extends WebhookBodies<Bodies>>(
  schemas: {
    [Type in keyof Bodies]: object;
  },
): WebhookParser<Bodies> {
  const byType = schemas as Record<string, object>;
  const types = Object.keys(byType);
  const validators = new Map<string, Validator>();
  const validatorOf = (type: string) => {
    let v = validators.get(type);
    if (!v) validators.set(type, (v = new Validator(byType[type], "2020-12", false)));
    return v;
  };
  /** Refuses an envelope that is not `only`'s (any declared webhook's when undefined). */
  const check = (only: string | undefined) => (envelope: unknown) => {
    const type = (envelope as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !Object.hasOwn(byType, type) || (only !== undefined && type !== only))
      throw new WebhookRefused(
        "payload",
        `type ${JSON.stringify(type)} is not ${only ?? `a declared webhook (${types.join(", ")})`}`,
      );
    const { valid, errors } = validatorOf(type).validate(envelope);
    if (!valid) throw new WebhookRefused("payload", `the body is not a ${type} webhook's: ${explain(errors)}`);
  };
  const parser = (only?: string): ParseWebhook<never> =>
    ((secret, headers, rawBody, seen) => verified(secret, headers, rawBody, seen, check(only))) as ParseWebhook<never>;
  const all = parser();
  // Function's own `name` and `length` are configurable: a webhook of either name still gets its parser.
  for (const type of types) Object.defineProperty(all, type, { value: parser(type), enumerable: true });
  return all as unknown as WebhookParser<Bodies>;
}

/** The deepest errors (those that say what is wrong with a value, not that a subschema failed), a few of them. */
function explain(errors: OutputUnit[]): string {
  // A property additionalProperties refuses is reported twice: by that keyword, and as a "false" schema.
  const leaves = errors.filter(
    (e) =>
      e.keyword !== "false" &&
      !errors.some((other) => other !== e && other.keywordLocation.startsWith(`${e.keywordLocation}/`)),
  );
  const listed = (leaves.length ? leaves : errors)
    .slice(0, MAX_LISTED)
    .map((e) => `${e.instanceLocation.replace(/^#/, "") || "/"}: ${e.error}`);
  return listed.join("; ") + (leaves.length > MAX_LISTED ? ` (and ${leaves.length - MAX_LISTED} more)` : "");
}

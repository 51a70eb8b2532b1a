// Receiving webhooks: a delivery is trusted only when its signature verifies (Standard Webhooks, checked by the
// `standardwebhooks` library: HMAC-SHA256 over id.timestamp.body, any of the space-separated signatures), its
// timestamp is within the library's tolerance (5 minutes) of the receiver's clock, and its id was not seen before (a
// replay; a retry of a delivery the receiver did get is one too: answer it 2xx and do nothing).
import { Webhook, WebhookVerificationError } from "standardwebhooks";

/** Where the ids of verified deliveries are remembered (default: the last 10 000, in memory). */
export interface SeenIds {
  has(id: string): boolean;
  add(id: string): unknown;
}

/** A delivery as verifyWebhook returns it: the envelope the service signed. */
export interface WebhookDelivery<Type extends string = string, Data = unknown> {
  /** the event's id (webhook-id): the same as the event's on subscriptions and SSE streams */
  id: string;
  type: Type;
  /** when the event was sent (ISO-8601) */
  timestamp: string;
  data: Data;
}

/**
 * Why a delivery is refused: "signature" (bad, missing or stale timestamp), "replay" (its id was seen) or, from a
 * generated parseWebhook, "payload" (its body is not a declared webhook's).
 */
export class WebhookRefused extends Error {
  /**
   * @param reason - "signature", "replay" or "payload"
   * @param message - what was wrong
   */
  constructor(
    readonly reason: "signature" | "replay" | "payload",
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_SEEN = boundedSet(10_000);

/**
 * Verifies one delivery and returns its envelope; throws WebhookRefused otherwise.
 *
 * @param secret - the endpoint's secret (`whsec_…`), or several during a rotation (either verifying is enough)
 * @param headers - the request's headers (a Headers, or a record as Node's `req.headers`)
 * @param rawBody - the request's body exactly as received (not re-serialized JSON)
 * @param seen - where verified ids are remembered, to refuse a replay (default: the last 10 000 in this process)
 */
export function verifyWebhook(
  secret: string | string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  seen: SeenIds = DEFAULT_SEEN,
): WebhookDelivery {
  return verified(secret, headers, rawBody, seen);
}

/** A request's headers: a Headers, or a record as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * verifyWebhook, with `check` (which throws a WebhookRefused) run on the envelope before its id is remembered: a
 * delivery refused for its body is not a replay when it comes again.
 */
export function verified(
  secret: string | string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  seen: SeenIds = DEFAULT_SEEN,
  check: (envelope: unknown) => void = () => {},
): WebhookDelivery {
  const flat: Record<string, string> = {};
  const read = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = read(name);
    flat[name] = Array.isArray(value) ? value.join(" ") : (value ?? "");
  }
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  let payload: unknown;
  let last: unknown;
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    try {
      payload = new Webhook(s).verify(body, flat);
      break;
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      last = err;
    }
  }
  if (payload === undefined)
    throw new WebhookRefused("signature", (last as Error | undefined)?.message ?? "no secret given");
  const id = flat["webhook-id"];
  if (seen.has(id)) throw new WebhookRefused("replay", `delivery ${id} was received already`);
  check(payload);
  seen.add(id);
  return { id, ...(payload as Omit<WebhookDelivery, "id">) };
}

/** A set that forgets its oldest entries beyond `max`. */
function boundedSet(max: number): SeenIds {
  const ids = new Set<string>();
  return {
    has: (id) => ids.has(id),
    add(id) {
      ids.add(id);
      if (ids.size > max) ids.delete(ids.values().next().value!);
    },
  };
}

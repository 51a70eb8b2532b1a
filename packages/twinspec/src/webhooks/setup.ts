// An application's webhooks, as buildApp sets them up when its specs declare some: the endpoint registry, and the
// delivery worker woken by every committed event of a declared type (on any instance: the durable bus hears them
// all) besides its poll. An event's owner is read as the subscription's is: the payload's owning property, looked up
// through the application's owners (ownerLookup). Metrics count deliveries and failures, and the oldest undelivered
// event's age. Attempts are pruned in the background: older than their retention, or beyond each endpoint's newest
// `attemptsPerEndpoint`.
import type { Logger } from "pino";
import type { ContractFacts, OwnerLookup } from "../definition.js";
import type { Metrics } from "../http/metrics.js";
import type { Store } from "../store/database.js";
import type { EventBus, EventMap } from "../store/events.js";
import { WebhookDelivery, type DeliveryOptions } from "./delivery.js";
import { WebhookEndpoints } from "./endpoints.js";

/** The webhooks of an application (`App.webhooks`). */
export interface Webhooks {
  /** the endpoints callers registered */
  endpoints: WebhookEndpoints;
  /** the delivery worker */
  delivery: WebhookDelivery;
  /** deletes the attempts past their retention (the background prune; tests call it); resolves to how many */
  pruneAttempts(now?: number): Promise<number>;
  close(): Promise<void>;
}

const DEFAULT_ATTEMPT_RETENTION_MS = 7 * 24 * 3600_000;
const DEFAULT_ATTEMPTS_PER_ENDPOINT = 1000;

export function webhooksFor(
  store: Store,
  bus: EventBus,
  declared: NonNullable<ContractFacts["webhooks"]>,
  owners: OwnerLookup,
  serverSecret: string | undefined,
  logger: Logger,
  metrics: Metrics,
  options: DeliveryOptions = {},
): Webhooks {
  const types = Object.keys(declared);
  // Without a server secret (tokens from an identity provider only), endpoint secrets are sealed with a per-start
  // key: they sign until the process restarts, and new ones are needed then.
  const endpoints = new WebhookEndpoints(store.db, serverSecret ?? crypto.randomUUID(), types, options.policy, () => {
    listen();
    delivery.kick();
  });
  if (!serverSecret) logger.warn("no AUTH_SECRET: webhook endpoint secrets are sealed with a key of this process only");
  const ownerOf = async (type: string, payload: unknown): Promise<string | null | undefined> => {
    const owner = declared[type]?.owner;
    if (!owner || owner === "none") return null;
    const id = (payload as Record<string, unknown> | null)?.[owner.by];
    return typeof id === "string" ? ((await owners(owner.resource, id)) ?? undefined) : undefined;
  };
  const delivery = new WebhookDelivery(store.db, endpoints, types, ownerOf, logger, options);
  // Woken by committed events once there is an endpoint to deliver to (registered here, or found by a pass): an
  // application without endpoints keeps the bus's listeners to its subscriptions.
  let unsubscribe: (() => void)[] | undefined;
  const listen = () =>
    void (unsubscribe ??= types.map((type) => bus.subscribe(type as keyof EventMap, () => delivery.kick())));
  delivery.onClaim = listen;
  // The oldest undelivered event's age is read on the delivery's poll, once some endpoint exists, never on a scrape:
  // a scrape of /metrics moves no counter of its own, db_queries_total included.
  let oldest = 0;
  let reading = false;
  const refresh = setInterval(() => {
    if (!unsubscribe || reading) return;
    reading = true;
    delivery
      .oldestUndeliveredMs()
      .then((ms) => void (oldest = ms / 1000))
      .catch(() => {})
      .finally(() => (reading = false));
  }, options.pollMs ?? 1000).unref();
  metrics.gauge(
    "webhook_deliveries_total",
    "Webhook deliveries received (2xx) by this instance",
    () => delivery.counts.delivered,
  );
  metrics.gauge(
    "webhook_failures_total",
    "Webhook deliveries failed for good (after the last attempt) on this instance",
    () => delivery.counts.failed,
  );
  metrics.gauge(
    "webhook_retries_total",
    "Webhook attempts to be retried, on this instance",
    () => delivery.counts.retried,
  );
  metrics.gauge(
    "webhook_oldest_undelivered_seconds",
    "Age of the oldest event an active endpoint has yet to receive (as of the delivery's last poll)",
    () => oldest,
  );
  const pruneAttempts = async (now = Date.now()) => {
    try {
      return await endpoints.pruneAttempts(
        now - (options.attemptRetentionMs ?? DEFAULT_ATTEMPT_RETENTION_MS),
        options.attemptsPerEndpoint ?? DEFAULT_ATTEMPTS_PER_ENDPOINT,
      );
    } catch (err) {
      logger.warn({ err }, "could not prune the webhook attempts");
      return 0;
    }
  };
  const pruning = setInterval(() => void pruneAttempts(), options.pruneEveryMs ?? 600_000).unref();
  return {
    endpoints,
    delivery,
    pruneAttempts,
    async close() {
      clearInterval(refresh);
      clearInterval(pruning);
      for (const off of unsubscribe ?? []) off();
      await delivery.stop();
    },
  };
}

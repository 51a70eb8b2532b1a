// Kysely table types of the store's own tables (jobs, idempotency keys, rate-limit counts, the event log). The
// application's tables are added to `Database` by generated/database.ts, which `npm run generate` writes from its
// migrations (declaration merging: `declare module "twinspec/schema"`), so no list of resources is kept here. Timestamps are ISO-8601 strings and JSON columns are text on every dialect, so the
// code is the same on SQLite and PostgreSQL.
import type { Generated } from "kysely";

/** The job queue's jobs (JobQueue): one row per job, inserted PENDING by the domain. */
export interface JobsTable {
  /** the job's id */
  job_id: string;
  /** which handler runs it (JobQueue.register) */
  kind: string;
  /** "PENDING", "RUNNING" (claimed), "SUCCEEDED" or "FAILED" */
  status: string;
  /** the handler's input, as JSON */
  payload: string;
  /** what the handler returned (`result`), as JSON; null until it succeeds */
  result: string | null;
  /** why it failed for good, as JSON `{ title, detail }`; null unless it failed */
  error: string | null;
  /** how many times a worker claimed it (0 on insert) */
  attempts: Generated<number>;
  /** the row's version, one more at each claim and completion (a completion is fenced by it) */
  version: number;
  /** ISO-8601; jobs are claimed oldest first */
  created_at: string;
  /** ISO-8601 */
  updated_at: string;
  /** ISO-8601: when the running claim expires and another worker may take the job over; null when not running */
  lease_until: string | null;
}

/** The answers stored for Idempotency-Keys of REST writes, replayed when a request repeats one. */
export interface IdempotencyKeysTable {
  /** whose key it is (the principal's subject), so callers cannot replay each other's responses */
  scope: string;
  /** the Idempotency-Key header's value */
  key: string;
  /** method, path and body digest of the first request */
  fingerprint: string;
  /** null while the first request is still running */
  status: number | null;
  /** the stored answer's headers, as JSON; null while the first request runs */
  headers: string | null;
  /** the stored answer's body, as JSON; null while the first request runs, or when it had none */
  body: string | null;
  /** ISO-8601: when the key was first used */
  created_at: string;
}

/** What one instance admitted for a caller in one window of one budget (PostgreSQL). */
export interface RateLimitsTable {
  /** "<budget>|<caller>" */
  key: string;
  /** ms since the epoch */
  window_start: number;
  /** the instance that admitted them (a UUID per process) */
  instance: string;
  /** how many units (requests, query cost) it admitted in the window */
  used: number;
  /** ms since the epoch: when the row may be deleted */
  expires_at: number;
}

/** The durable event log (src/store/event-log.ts): one row per event, in the order positions were given. */
export interface EventsTable {
  /** bigserial on PostgreSQL (read back as a string), integer on SQLite */
  position: Generated<number | string>;
  /** the event's type (a key of EventMap) */
  type: string;
  /** the event as JSON */
  payload: string;
  /** ms since the epoch */
  created_at: number;
}

/** One row (id 1): the last position the retention pruned. */
export interface EventHorizonTable {
  /** always 1 */
  id: number;
  /** the last position pruned (events up to it are gone; 0 when none was) */
  pruned_through: number | string;
}

/** An endpoint a caller registered for webhooks (src/webhooks/endpoints.ts), with its delivery state. */
export interface WebhookEndpointsTable {
  /** the endpoint's id */
  endpoint_id: string;
  /** the subject (a token's sub) whose events it receives; null: every event (registered by an admin) */
  owner: string | null;
  /** where deliveries are POSTed */
  url: string;
  /** the event types it receives, as a JSON array */
  events: string;
  /** its signing secrets, encrypted (secrets.ts): the newest first, an older one with the time it stops signing */
  secrets: string;
  /** 1: nothing is delivered until it is resumed */
  paused: Generated<number>;
  /** 1: a delivery failed for good since the endpoint was last changed */
  failing: Generated<number>;
  /** the last event position it is done with (bigint: read back as a string on PostgreSQL) */
  position: number | string;
  /** attempts made at the event after `position` */
  attempts: Generated<number>;
  /** ms since the epoch: no attempt before then (backoff, Retry-After) */
  next_at: Generated<number | string>;
  /** ms since the epoch: until then an instance is delivering to it */
  lease_until: Generated<number | string>;
  /** one more at each claim: a delivery is recorded only by the claim that made it */
  version: Generated<number>;
  /** ISO-8601 */
  created_at: string;
  /** ISO-8601 */
  updated_at: string;
  /** ISO-8601: when it was deleted (a tombstone: requests for it answer 410); null while it lives */
  deleted_at: string | null;
}

/** One event an endpoint is to be sent again, ahead of its cursor (a redelivery of that event alone). */
export interface WebhookRedeliveriesTable {
  /** the endpoint it is to be sent to */
  endpoint_id: string;
  /** the event's position (its id) */
  position: number | string;
  /** attempts made at it so far */
  attempts: Generated<number>;
  /** ms since the epoch: when it was asked for */
  requested_at: number | string;
}

/** One delivery attempt to an endpoint: what callers list to see how their endpoint answers. */
export interface WebhookAttemptsTable {
  /** the endpoint it went to */
  endpoint_id: string;
  /** the event's position (its id) */
  position: number | string;
  /** 1 for the first attempt at this event */
  attempt: number;
  /** ms since the epoch: when it was sent */
  at: number | string;
  /** the receiver's status; null when none came (network error, timeout, refused address) */
  status: number | null;
  /** from sending to the receiver's answer (or the failure) */
  latency_ms: number;
  /** why it did not count as received; null when it did */
  error: string | null;
  /** "delivered", "retry" or "failed" (the last attempt) */
  outcome: string;
}

/**
 * Every table, by name, as `Kysely<Database>` reads it: Twinspec's own (below) and, merged in by
 * generated/database.ts, the application's.
 */
export interface Database {
  /** the answers stored for Idempotency-Keys */
  idempotency_keys: IdempotencyKeysTable;
  /** the job queue */
  jobs: JobsTable;
  /** rate-limit counts shared by instances (PostgreSQL) */
  rate_limits: RateLimitsTable;
  /** the durable event log */
  twinspec_events: EventsTable;
  /** how far the event log was pruned */
  twinspec_event_horizon: EventHorizonTable;
  /** the endpoints registered for webhooks, and their delivery state */
  twinspec_webhook_endpoints: WebhookEndpointsTable;
  /** every delivery attempt */
  twinspec_webhook_attempts: WebhookAttemptsTable;
  /** single events to send again */
  twinspec_webhook_redeliveries: WebhookRedeliveriesTable;
}

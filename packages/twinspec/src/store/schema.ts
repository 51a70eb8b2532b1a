// Kysely table types of the store's own tables (jobs, idempotency keys, rate-limit counts, the event log). Each resource's domain
// module adds its table to `Database` itself (declaration merging: `declare module "twinspec/schema"`), so no
// list of resources is kept here. Timestamps are ISO-8601 strings and JSON columns are text on every dialect, so the
// code is the same on SQLite and PostgreSQL.
import type { Generated } from "kysely";

export interface JobsTable {
  job_id: string;
  kind: string;
  status: string;
  payload: string;
  result: string | null;
  error: string | null;
  attempts: Generated<number>;
  version: number;
  created_at: string;
  updated_at: string;
  lease_until: string | null;
}

export interface IdempotencyKeysTable {
  /** whose key it is (the principal's subject), so callers cannot replay each other's responses */
  scope: string;
  key: string;
  /** method, path and body digest of the first request */
  fingerprint: string;
  /** null while the first request is still running */
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
}

/** What one instance admitted for a caller in one window of one budget (PostgreSQL). */
export interface RateLimitsTable {
  /** "<budget>|<caller>" */
  key: string;
  /** ms since the epoch */
  window_start: number;
  instance: string;
  used: number;
  expires_at: number;
}

/** The durable event log (src/store/event-log.ts): one row per event, in the order positions were given. */
export interface EventsTable {
  /** bigserial on PostgreSQL (read back as a string), integer on SQLite */
  position: Generated<number | string>;
  type: string;
  /** the event as JSON */
  payload: string;
  /** ms since the epoch */
  created_at: number;
}

/** One row (id 1): the last position the retention pruned. */
export interface EventHorizonTable {
  id: number;
  pruned_through: number | string;
}

export interface Database {
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
  twinspec_events: EventsTable;
  twinspec_event_horizon: EventHorizonTable;
}

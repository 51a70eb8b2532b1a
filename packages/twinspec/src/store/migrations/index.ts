// Twinspec's own migrations, in the order they apply: imported here rather than read from a folder at run time, so
// they travel inside the package's bundle. A new one is a new file and a line here (a test keeps the two equal).
import type { Migration } from "kysely";
import * as jobs from "./001_jobs.js";
import * as idempotencyKeys from "./002_idempotency_keys.js";
import * as rateLimits from "./003_rate_limits.js";
import * as events from "./004_events.js";
import * as webhooks from "./005_webhooks.js";
import * as webhookRedeliveries from "./006_webhook_redeliveries.js";

export const OWN_MIGRATIONS: Record<string, Migration> = {
  "001_jobs": jobs,
  "002_idempotency_keys": idempotencyKeys,
  "003_rate_limits": rateLimits,
  "004_events": events,
  "005_webhooks": webhooks,
  "006_webhook_redeliveries": webhookRedeliveries,
};

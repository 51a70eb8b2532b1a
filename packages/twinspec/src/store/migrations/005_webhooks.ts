// Twinspec's migration 005_webhooks: the endpoints callers registered for webhooks, and each endpoint's delivery
// state (src/webhooks/). An endpoint reads the event log from its own cursor, in order: `position` is the last event
// it is done with (delivered, not its kind, or failed for good); the one after is in flight until it is done.
// Attempts are kept for callers to list; failures for good, to redeliver.
import type { Kysely } from "kysely";
import { text } from "../columns.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("twinspec_webhook_endpoints")
    .ifNotExists()
    .addColumn("endpoint_id", text(db), (c) => c.primaryKey())
    .addColumn("owner", text(db))
    .addColumn("url", text(db), (c) => c.notNull())
    .addColumn("events", text(db), (c) => c.notNull())
    .addColumn("secrets", text(db), (c) => c.notNull())
    .addColumn("paused", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failing", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "bigint", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_at", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("twinspec_webhook_attempts")
    .ifNotExists()
    .addColumn("endpoint_id", text(db), (c) => c.notNull())
    .addColumn("position", "bigint", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("error", text(db))
    .addColumn("outcome", text(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("twinspec_webhook_attempts_endpoint")
    .ifNotExists()
    .on("twinspec_webhook_attempts")
    .columns(["endpoint_id", "at"])
    .execute();
}

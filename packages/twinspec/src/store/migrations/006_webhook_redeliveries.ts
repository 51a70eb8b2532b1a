// Twinspec's migration 006_webhook_redeliveries: what the endpoints' API (src/webhooks/api.ts) needs besides 005.
// A deleted endpoint is kept as a tombstone (`deleted_at`, its secrets and cursor no longer used), so requests for it
// answer 410; a single event asked for again waits in twinspec_webhook_redeliveries until it is sent; attempts are
// pruned by age (the index on `at`).
import { sql, type Kysely } from "kysely";
import { text } from "../columns.js";
import { isPostgres } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  // Like every migration of Twinspec's, it may meet what it makes already (a database whose record of them was lost).
  if (isPostgres(db))
    await sql`alter table twinspec_webhook_endpoints add column if not exists deleted_at text collate "C"`.execute(db);
  else {
    const columns = await sql<{ name: string }>`pragma table_info(twinspec_webhook_endpoints)`.execute(db);
    if (!columns.rows.some((c) => c.name === "deleted_at"))
      await db.schema.alterTable("twinspec_webhook_endpoints").addColumn("deleted_at", text(db)).execute();
  }
  await db.schema
    .createTable("twinspec_webhook_redeliveries")
    .ifNotExists()
    .addColumn("endpoint_id", text(db), (c) => c.notNull())
    .addColumn("position", "bigint", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requested_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("twinspec_webhook_redeliveries_pk", ["endpoint_id", "position"])
    .execute();
  await db.schema
    .createIndex("twinspec_webhook_attempts_at")
    .ifNotExists()
    .on("twinspec_webhook_attempts")
    .column("at")
    .execute();
}

// Migration 006_customer_avatars: applied once, in name order, on SQLite and PostgreSQL alike. Never edit it once shipped.
// One avatar image per customer (PUT/GET/DELETE /customers/{customerId}/avatar). A removed avatar keeps its row with
// no content, so its version (the ETag) keeps counting up and a new upload never repeats an ETag a client saw.
import type { Kysely } from "kysely";
import { bytes, text } from "twinspec";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("customer_avatars")
    .addColumn("customer_id", text(db), (c) => c.primaryKey())
    .addColumn("media_type", text(db))
    .addColumn("size", "integer")
    .addColumn("content", bytes(db))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .execute();
}

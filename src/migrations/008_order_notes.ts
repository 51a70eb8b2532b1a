// Migration 008_order_notes: notes written on an order. A note names its order only: who owns it is the order's
// customer, looked up at request time (x-resource owner: { through: orders, by: orderId }), so it follows a merge.
import type { Kysely } from "kysely";
import { text } from "twinspec";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_notes")
    .addColumn("note_id", text(db), (c) => c.primaryKey())
    .addColumn("order_id", text(db), (c) => c.notNull())
    .addColumn("text", text(db), (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .execute();
  await db.schema
    .createIndex("order_notes_order")
    .on("order_notes")
    .columns(["order_id", "created_at", "note_id"])
    .execute();
}

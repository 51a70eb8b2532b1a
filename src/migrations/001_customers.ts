// Migration 001_customers: applied once, in name order, on SQLite and PostgreSQL alike. Never edit it once shipped.
import { sql, type Kysely } from "kysely";
import { text } from "twinspec";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("customers")
    .addColumn("customer_id", text(db), (c) => c.primaryKey())
    .addColumn("first_name", text(db), (c) => c.notNull())
    .addColumn("last_name", text(db), (c) => c.notNull())
    .addColumn("email", text(db), (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .addColumn("merged_into", text(db))
    .execute();
  await db.schema.createIndex("customers_created").on("customers").columns(["created_at", "customer_id"]).execute();
  // One live customer per email; deleted and merged ones free their address.
  await db.schema
    .createIndex("customers_live_email")
    .unique()
    .on("customers")
    .column("email")
    .where(sql.ref("deleted_at"), "is", null)
    .where(sql.ref("merged_into"), "is", null)
    .execute();
}

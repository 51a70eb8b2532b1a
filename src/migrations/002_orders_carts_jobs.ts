// Migration 002_orders_carts_jobs: applied once, in name order, on SQLite and PostgreSQL alike. Its jobs table is
// Twinspec's now (the package's migration 001_jobs, which runs first); databases that ran this earlier keep theirs.
import type { Kysely } from "kysely";
import { text } from "twinspec";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("orders")
    .addColumn("order_id", text(db), (c) => c.primaryKey())
    .addColumn("customer_id", text(db), (c) => c.notNull())
    .addColumn("status", text(db), (c) => c.notNull())
    .addColumn("items", text(db), (c) => c.notNull())
    .addColumn("total", "double precision", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .execute();
  await db.schema
    .createIndex("orders_customer")
    .on("orders")
    .columns(["customer_id", "created_at", "order_id"])
    .execute();
  await db.schema
    .createTable("carts")
    .addColumn("cart_id", text(db), (c) => c.primaryKey())
    .addColumn("customer_id", text(db), (c) => c.notNull())
    .addColumn("items", text(db), (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    // set once checkout is accepted: the cart is then frozen
    .addColumn("checkout_job_id", text(db))
    .execute();
  await db.schema.createIndex("carts_customer").on("carts").columns(["customer_id", "created_at", "cart_id"]).execute();
}

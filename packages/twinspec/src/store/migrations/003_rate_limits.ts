// Twinspec's migration 003_rate_limits: applied once, before the application's, on SQLite and PostgreSQL alike (`if not exists`:
// a database an application's earlier migration gave the table keeps it).
// What each instance admitted per caller, budget and window (src/store/rate-limits.ts); only PostgreSQL uses the
// table: on SQLite one process serves, and its counts live in memory.
import type { Kysely } from "kysely";
import { text } from "../columns.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .ifNotExists()
    .addColumn("key", text(db), (c) => c.notNull())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("instance", text(db), (c) => c.notNull())
    .addColumn("used", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limits_pk", ["key", "window_start", "instance"])
    .execute();
  await db.schema.createIndex("rate_limits_expires").ifNotExists().on("rate_limits").column("expires_at").execute();
}

// Twinspec's migration 002_idempotency_keys: applied once, before the application's, on SQLite and PostgreSQL alike (`if not exists`:
// a database an application's earlier migration gave the table keeps it).
import type { Kysely } from "kysely";
import { text } from "../columns.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
    .ifNotExists()
    .addColumn("scope", text(db), (c) => c.notNull())
    .addColumn("key", text(db), (c) => c.notNull())
    .addColumn("fingerprint", text(db), (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("headers", text(db))
    .addColumn("body", text(db))
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "key"])
    .execute();
}

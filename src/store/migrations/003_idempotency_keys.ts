// Migration 003_idempotency_keys: applied once, in name order, on SQLite and PostgreSQL alike. Never edit it once shipped.
import type { Kysely } from "kysely";
import { text } from "../columns.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
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

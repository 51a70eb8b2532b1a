// Twinspec's migration 001_jobs: the durable job queue (src/store/job-queue.ts). Twinspec's own migrations run before
// an application's, with their own bookkeeping table (twinspec_migration). `if not exists`: a database an
// application's earlier migration already gave the table keeps it as it is.
import type { Kysely } from "kysely";
import { text } from "../columns.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .ifNotExists()
    .addColumn("job_id", text(db), (c) => c.primaryKey())
    .addColumn("kind", text(db), (c) => c.notNull())
    .addColumn("status", text(db), (c) => c.notNull())
    .addColumn("payload", text(db), (c) => c.notNull())
    .addColumn("result", text(db))
    .addColumn("error", text(db))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("lease_until", text(db))
    .execute();
  await db.schema.createIndex("jobs_status").ifNotExists().on("jobs").columns(["status", "created_at"]).execute();
}

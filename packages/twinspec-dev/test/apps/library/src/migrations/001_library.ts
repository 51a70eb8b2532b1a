// Migration 001_library: members, books (with how many of their copies are on the shelf) and loans.
import type { Kysely } from "kysely";
import { text } from "twinspec";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("members")
    .addColumn("member_id", text(db), (c) => c.primaryKey())
    .addColumn("name", text(db), (c) => c.notNull())
    .addColumn("email", text(db))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .execute();
  await db.schema
    .createTable("books")
    .addColumn("book_id", text(db), (c) => c.primaryKey())
    .addColumn("title", text(db), (c) => c.notNull())
    .addColumn("isbn", text(db))
    .addColumn("copies", "integer", (c) => c.notNull())
    .addColumn("available", "integer", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .execute();
  await db.schema
    .createTable("loans")
    .addColumn("loan_id", text(db), (c) => c.primaryKey())
    .addColumn("member_id", text(db), (c) => c.notNull())
    .addColumn("book_id", text(db), (c) => c.notNull())
    .addColumn("note", text(db))
    .addColumn("status", text(db), (c) => c.notNull())
    .addColumn("due_at", text(db), (c) => c.notNull())
    .addColumn("returned_at", text(db))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", text(db), (c) => c.notNull())
    .addColumn("updated_at", text(db), (c) => c.notNull())
    .addColumn("deleted_at", text(db))
    .execute();
  await db.schema.createIndex("loans_by_member").on("loans").columns(["member_id", "created_at", "loan_id"]).execute();
}

// Column types that mean the same on SQLite and PostgreSQL, for migrations (src/store/migrations/ and an application's src/migrations/).
import { sql, type Expression, type Kysely } from "kysely";
import { isPostgres } from "./dialect.js";

/**
 * Text columns. On PostgreSQL they compare byte-wise (collation "C"), as SQLite's do: ids, ISO timestamps and
 * keyset cursors then sort the same on both, whatever locale the database was created with. SQLite keeps "text".
 * In a migration: `.addColumn("title", text(db), (c) => c.notNull())`.
 *
 * @param db - the migration's Kysely instance
 */
export const text = (db: Kysely<any>): "text" | Expression<unknown> =>
  isPostgres(db) ? sql`text collate "C"` : "text";

/**
 * Bytes (uploaded files): SQLite's blob is PostgreSQL's bytea; both read back as a Buffer.
 *
 * @param db - the migration's Kysely instance
 */
export const bytes = (db: Kysely<any>): "blob" | "bytea" => (isPostgres(db) ? "bytea" : "blob");

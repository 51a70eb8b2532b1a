// Which database a Kysely instance (or transaction) talks to, for the few places that must differ.
import { PostgresAdapter, type Kysely } from "kysely";

export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** A unique or primary-key constraint refused the write, on either database. */
export const isUniqueViolation = (error: unknown): boolean =>
  ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"].includes((error as { code?: string }).code ?? "");

// Which database a Kysely instance (or transaction) talks to, for the few places that must differ.
import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Whether `db` talks to PostgreSQL (false: SQLite), for the few queries that must differ.
 *
 * @param db - a Kysely instance or transaction
 */
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * A unique or primary-key constraint refused the write, on either database (SQLite's SQLITE_CONSTRAINT_UNIQUE or
 * _PRIMARYKEY, PostgreSQL's 23505): e.g. a create that lost a race, to answer as a ConflictError.
 *
 * @param error - what the write threw
 */
export const isUniqueViolation = (error: unknown): boolean =>
  ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"].includes(
    (error as { code?: string }).code ?? "",
  );

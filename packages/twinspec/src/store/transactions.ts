// Transactions that behave the same on both databases. SQLite runs one writer at a time, so a transaction that
// reads a row, checks it and writes it back sees nobody else's change in between. PostgreSQL runs them side by
// side at READ COMMITTED: there the row is locked first (lockRows), which gives the same one-at-a-time order per
// row, and the rare deadlock between two such transactions is retried instead of surfacing as a 500.
import { sql, type Kysely, type Transaction } from "kysely";
import { isPostgres } from "./dialect.js";
import type { Database } from "./schema.js";

/** serialization_failure, deadlock_detected: the transaction was rolled back and may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const ATTEMPTS = 5;

/**
 * Runs `work` in one transaction, committed when it resolves and rolled back when it throws (the error passes on).
 * On PostgreSQL a serialization failure or deadlock (40001, 40P01) runs it again, 5 attempts at most, after a short
 * random pause: `work` may run more than once, so it does nothing outside the transaction it cannot repeat.
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param work - what runs inside, on `trx` (every query of it on `trx`, not `db`); what it resolves to is returned
 */
export async function transaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * Inside a transaction on PostgreSQL, locks the rows of `table` whose `idColumn` is one of `ids` until it ends:
 * "update" before changing them, "share" to keep them as read (a parent that must stay live while something is
 * added for it). Ids are locked in sorted order so two transactions locking the same rows cannot deadlock. Does
 * nothing on SQLite, or outside a transaction (there is nothing to hold the lock for).
 *
 * @param db - the transaction (`trx`)
 * @param table - the table the rows are in
 * @param idColumn - the column `ids` are values of (the table's id)
 * @param ids - the rows to lock (duplicates allowed; none: nothing is done)
 * @param mode - "update" (default: FOR UPDATE, before changing them) or "share" (FOR SHARE, to keep them as read)
 */
export async function lockRows<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  idColumn: keyof Database[T] & string,
  ids: readonly string[],
  mode: "update" | "share" = "update",
): Promise<void> {
  if (!db.isTransaction || ids.length === 0 || !isPostgres(db)) return;
  const sorted = [...new Set(ids)].sort();
  await sql`select 1 from ${sql.table(table)} where ${sql.ref(idColumn)} in (${sql.join(sorted)}) order by ${sql.ref(idColumn)} for ${sql.raw(mode === "update" ? "update" : "share")}`.execute(
    db,
  );
}

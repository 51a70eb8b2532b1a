// Whether a customer can be acted on — 404 (none), 410 (deleted), 301 (merged) — asked by every module whose
// resources a customer owns (customers, avatars, carts, checkout).
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import { GoneError, lockRows, MovedError, NotFoundError } from "twinspec";

/** Whether a customer can be acted on, or the reason it cannot: 404 (none), 410 (deleted), 301 (merged). */
export function requireLive(
  customerId: string,
  found: boolean,
  mergedInto: string | null | undefined,
  deletedAt: string | null | undefined,
): void {
  if (!found) throw new NotFoundError("customer", customerId);
  if (mergedInto) throw new MovedError("customer", customerId, mergedInto);
  if (deletedAt) throw new GoneError("customer", customerId);
}

/** A customer's whole row, read in `db` (a transaction or not). */
export const rowIn = (db: Kysely<Database>, customerId: string) =>
  db.selectFrom("customers").selectAll().where("customer_id", "=", customerId).executeTakeFirst();

/** The customer's row in `db` if it can be acted on, or the reason it cannot. */
export async function liveRow(db: Kysely<Database>, customerId: string): Promise<Selectable<Database["customers"]>> {
  const row = await rowIn(db, customerId);
  requireLive(customerId, row !== undefined, row?.merged_into, row?.deleted_at);
  return row!;
}

/** Checks, inside `db` (a transaction or not), that the customer can own new things ("update": and change its own). */
export async function requireLiveCustomer(
  db: Kysely<Database>,
  customerId: string,
  lock: "share" | "update" = "share",
): Promise<void> {
  // Held until the caller commits, so a concurrent delete or merge waits and then sees what was added.
  await lockRows(db, "customers", "customer_id", [customerId], lock);
  await liveRow(db, customerId);
}

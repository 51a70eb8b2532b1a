// The customers' reads outside transactions, as statements compiled once (twinspec's prepared reads: on SQLite, run
// on better-sqlite3 directly, a point read as raw values): a projection's fields of one customer with what says
// whether it may be acted on, a whole row, the live rows of many (loaders). What they mean is src/domain/customers.ts's.
import type { Kysely, Selectable } from "kysely";
import { prepared, preparedIn, projectedByKey } from "twinspec";
import type { Database } from "twinspec/schema";

type CustomerRow = Selectable<Database["customers"]>;

export function customerReads(db: Kysely<Database>) {
  const whole = prepared(
    db,
    (customerId: string) => db.selectFrom("customers").selectAll().where("customer_id", "=", customerId),
    ["sample"],
  );
  const live = preparedIn(db, (among) =>
    db
      .selectFrom("customers")
      .selectAll()
      .where("deleted_at", "is", null)
      .where("merged_into", "is", null)
      .where(among("customer_id")),
  );
  return {
    /** A customer's whole row, whatever its state (undefined: none). */
    row: async (customerId: string): Promise<CustomerRow | undefined> => (await whole(customerId))[0],
    /** The rows of the live customers among `ids`, in no particular order. */
    liveRows: (ids: readonly string[]): Promise<CustomerRow[]> =>
      ids.length === 0 ? Promise.resolve([]) : live(ids, undefined, ""),
    /** A projection's fields of a customer, and its merged_into and deleted_at (undefined: no such customer). */
    projected: projectedByKey<CustomerRow, "merged_into" | "deleted_at">(db, "customers", "customer_id", [
      "merged_into",
      "deleted_at",
    ]),
  };
}

export type CustomerReads = ReturnType<typeof customerReads>;

// The application-level rule, in one place: a customer's token acts only on that customer's resources.
// Which customer owns a target is found from the identifier in the request (customerId, orderId, cartId, jobId).
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";

export type OwnerLookup = (db: Kysely<Database>, id: string) => Promise<string | undefined>;

/** Identifier name → how to find the owning customer. Undefined = no such resource (the handler answers 404). */
export const OWNERS: Record<string, OwnerLookup> = {
  customerId: async (_db, id) => id,
  orderId: async (db, id) => (await db.selectFrom("orders").select("customer_id").where("order_id", "=", id).executeTakeFirst())?.customer_id,
  cartId: async (db, id) => (await db.selectFrom("carts").select("customer_id").where("cart_id", "=", id).executeTakeFirst())?.customer_id,
  jobId: async (db, id) => {
    const row = await db.selectFrom("jobs").select("payload").where("job_id", "=", id).executeTakeFirst();
    return row ? (JSON.parse(row.payload) as { customerId?: string }).customerId : undefined;
  },
};

/** The customer owning the target named by `ids` (the first identifier known to OWNERS); null = no target. */
export async function ownerOf(db: Kysely<Database>, ids: Record<string, unknown>): Promise<string | undefined | null> {
  for (const [name, lookup] of Object.entries(OWNERS)) {
    const id = ids[name];
    if (typeof id === "string") return lookup(db, id);
  }
  return null;
}

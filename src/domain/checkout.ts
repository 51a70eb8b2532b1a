// The checkout job: turns a frozen cart into one order. Runs inside the queue's transaction, so the order and
// the job's completion commit together; the order id derives from the job id, so a rerun cannot make a second.
import type { Kysely } from "kysely";
import type { EventBus } from "twinspec/events";
import { JobFailed, type JobHandler, DomainError, now } from "twinspec";
import { derivedId } from "../../generated/contract.js";
import type { Database } from "twinspec/schema";
import type { LineItem } from "./line-items.js";
import { requireLiveCustomer } from "./live-customer.js";
import { insertOrder, type Order } from "./orders.js";

export const orderIdForJob = (jobId: string) => derivedId("orders", jobId);

/** What checkout reads of a cart: carts.ts's `cartIn`, handed over by the carts service that registers the job. */
type CartReader = (db: Kysely<Database>, cartId: string) => Promise<{ customerId: string; items: LineItem[] }>;

async function runCheckout(
  db: Kysely<Database>,
  cartIn: CartReader,
  jobId: string,
  payload: { cartId: string },
): Promise<Order> {
  const cart = await cartIn(db, payload.cartId);
  // After a merge the cart belongs to the surviving customer: the order goes there too.
  await requireLiveCustomer(db, cart.customerId);
  const orderId = orderIdForJob(jobId);
  const existing = await db.selectFrom("orders").select("order_id").where("order_id", "=", orderId).executeTakeFirst();
  if (existing) throw new Error(`order ${orderId} already exists for job ${jobId}`);
  return insertOrder(db, cart.customerId, cart.items, orderId);
}

/** The queue's handler for "checkout" jobs: a domain outcome (cart gone, customer deleted) fails the job for good. */
export function checkoutJob(bus: EventBus, cartIn: CartReader): JobHandler {
  return async (trx, jobId, payload) => {
    let order: Order;
    try {
      order = await runCheckout(trx, cartIn, jobId, payload);
    } catch (error) {
      if (error instanceof DomainError) throw new JobFailed("Checkout failed", error.message);
      throw error;
    }
    // In the job's transaction: delivered once the order and the job's completion commit.
    await bus.publish(
      "orderStatusChanged",
      { orderId: order.orderId, customerId: order.customerId, status: order.status, sentAt: now() },
      trx,
    );
    return { result: { orderId: order.orderId } };
  };
}

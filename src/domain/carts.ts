// Carts: created for a live customer, read, listed, replaced, deleted (tombstone), and checked out into an
// order by a durable job. A checked-out cart is frozen.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import {
  lockRows,
  transaction,
  liveRowsByParent,
  type ServiceDeps,
  ConflictError,
  GoneError,
  NotFoundError,
  PreconditionError,
  now,
  keysetPager,
  type Page,
  type PageRequest,
  projections,
  holds,
  type Preconditions,
} from "twinspec";
import { newId } from "../../generated/contract.js";
import { checkoutJob } from "./checkout.js";
import { requireLiveCustomer } from "./live-customer.js";
import { enqueueJob, type Job } from "./jobs.js";
import { itemsOf, parseItems, type LineItem } from "./line-items.js";
import type { CartsTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";

/** openapi.yaml's Cart, with its version and the checkout job that froze it. */
export interface Cart extends Spec.Cart {
  version: number;
  checkoutJobId: string | null;
}

type CartRow = Selectable<CartsTable>;

const projection = projections<CartRow, Cart>(
  {
    cartId: { column: "cart_id" },
    customerId: { column: "customer_id" },
    items: { column: "items", read: parseItems },
    createdAt: { column: "created_at" },
    updatedAt: { column: "updated_at" },
    version: { column: "version" },
    checkoutJobId: { column: "checkout_job_id" },
  },
  ["cartId", "customerId"],
);
const toCart = projection().map;

/** The cart, or 404; 410 when it or its customer was deleted. */
async function cartIn(db: Kysely<Database>, cartId: string): Promise<Cart> {
  const row = await db
    .selectFrom("carts")
    .innerJoin("customers", "customers.customer_id", "carts.customer_id")
    .selectAll("carts")
    .select("customers.deleted_at as customer_deleted_at")
    .where("cart_id", "=", cartId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("cart", cartId);
  if (row.deleted_at || row.customer_deleted_at) throw new GoneError("cart", cartId);
  return toCart(row);
}

export class CartService {
  private readonly db: Kysely<Database>;
  private readonly page;
  /**
   * Live carts of each customer, oldest first, in one query (for batch loading). With `fields`, only those (and the
   * ids) are read: the carts carry no other field.
   */
  readonly listByParents: (customerIds: readonly string[], fields?: readonly string[]) => Promise<Map<string, Cart[]>>;

  constructor(private readonly deps: ServiceDeps) {
    const db = (this.db = deps.store.db);
    deps.queue.register("checkout", checkoutJob(deps.bus, cartIn));
    const ofCustomer = (customerId: string) =>
      db.selectFrom("carts").selectAll().where("customer_id", "=", customerId).where("deleted_at", "is", null);
    this.page = keysetPager(db, ofCustomer, ["c"], "cart_id", (r) => r.cart_id, toCart);
    this.listByParents = liveRowsByParent(db, "carts", "customer_id", "cart_id", projection);
  }

  async create(customerId: string, input: { items: LineItem[] }): Promise<Cart> {
    const items = itemsOf(input.items);
    return transaction(this.db, async (trx) => {
      await requireLiveCustomer(trx, customerId);
      const at = now();
      const cart: Cart = {
        cartId: newId("carts"),
        customerId,
        items,
        createdAt: at,
        updatedAt: at,
        version: 1,
        checkoutJobId: null,
      };
      await trx
        .insertInto("carts")
        .values({
          cart_id: cart.cartId,
          customer_id: customerId,
          items: JSON.stringify(items),
          version: 1,
          created_at: at,
          updated_at: at,
          deleted_at: null,
          checkout_job_id: null,
        })
        .execute();
      return cart;
    });
  }

  get(cartId: string): Promise<Cart> {
    return cartIn(this.db, cartId);
  }

  /** The customer owning the cart (undefined: no such cart). */
  async ownerOf(cartId: string): Promise<string | undefined> {
    return (await this.db.selectFrom("carts").select("customer_id").where("cart_id", "=", cartId).executeTakeFirst())
      ?.customer_id;
  }

  async list(customerId: string, page: PageRequest): Promise<Page<Cart>> {
    await requireLiveCustomer(this.db, customerId);
    return this.page(page, customerId);
  }

  /** Replaces the items; the same items again change nothing (version and ETag kept). */
  async replaceItems(cartId: string, input: { items: LineItem[] }, pre?: Preconditions): Promise<Cart> {
    const items = itemsOf(input.items);
    return transaction(this.db, async (trx) => {
      await lockRows(trx, "carts", "cart_id", [cartId]);
      const current = await cartIn(trx, cartId);
      if (!holds(pre, current)) throw new PreconditionError("cart", cartId);
      if (current.checkoutJobId) throw this.frozen(current);
      if (JSON.stringify(current.items) === JSON.stringify(items)) return current;
      const updated: Cart = { ...current, items, version: current.version + 1, updatedAt: now() };
      const result = await trx
        .updateTable("carts")
        .set({ items: JSON.stringify(items), version: updated.version, updated_at: updated.updatedAt })
        .where("cart_id", "=", cartId)
        .where("version", "=", current.version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new PreconditionError("cart", cartId);
      return updated;
    });
  }

  async delete(cartId: string, pre?: Preconditions): Promise<void> {
    await transaction(this.db, async (trx) => {
      await lockRows(trx, "carts", "cart_id", [cartId]);
      const current = await cartIn(trx, cartId);
      if (!holds(pre, current)) throw new PreconditionError("cart", cartId);
      const at = now();
      await trx
        .updateTable("carts")
        .set({ deleted_at: at, updated_at: at, version: current.version + 1 })
        .where("cart_id", "=", cartId)
        .execute();
    });
  }

  /** Accepts the checkout: a durable job will turn the cart into an order. The cart is frozen from now on. */
  async checkout(cartId: string): Promise<Job> {
    const job = await transaction(this.db, async (trx) => {
      // Locked: two checkouts of one cart at once must make one job, not two.
      await lockRows(trx, "carts", "cart_id", [cartId]);
      const cart = await cartIn(trx, cartId);
      if (cart.checkoutJobId) throw this.frozen(cart);
      if (cart.items.length === 0) throw new ConflictError(`cart ${cartId} is empty; add items before checking out`);
      await requireLiveCustomer(trx, cart.customerId);
      const created = await enqueueJob(trx, "checkout", { cartId, customerId: cart.customerId });
      await trx
        .updateTable("carts")
        .set({ checkout_job_id: created.jobId, version: cart.version + 1, updated_at: created.createdAt })
        .where("cart_id", "=", cartId)
        .execute();
      return created;
    });
    this.deps.queue.kick();
    return job;
  }

  private frozen(cart: Cart) {
    return new ConflictError(
      `cart ${cart.cartId} was checked out (job ${cart.checkoutJobId}); it can no longer change`,
    );
  }
}

export function createService(deps: ServiceDeps): CartService {
  return new CartService(deps);
}

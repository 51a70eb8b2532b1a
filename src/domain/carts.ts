// Carts: read side. Creating, replacing and checking out carts arrive with the REST domain issue.
import type { Selectable } from "kysely";
import type { Store } from "../store/database.js";
import type { CartsTable } from "../store/schema.js";
import { GoneError, NotFoundError } from "./errors.js";
import { parseItems, type LineItem } from "./line-items.js";

export interface Cart {
  cartId: string;
  customerId: string;
  items: LineItem[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

const toCart = (row: Selectable<CartsTable>): Cart => ({
  cartId: row.cart_id,
  customerId: row.customer_id,
  items: parseItems(row.items),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

export class CartService {
  constructor(private readonly store: Store) {}

  async get(cartId: string): Promise<Cart> {
    const row = await this.store.db.selectFrom("carts").selectAll().where("cart_id", "=", cartId).executeTakeFirst();
    if (!row) throw new NotFoundError("cart", cartId);
    if (row.deleted_at) throw new GoneError("cart", cartId);
    return toCart(row);
  }

  /** Live carts of each customer, oldest first, in one query (for batch loading). */
  async forCustomers(customerIds: readonly string[]): Promise<Map<string, Cart[]>> {
    const byCustomer = new Map<string, Cart[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const rows = await this.store.db
      .selectFrom("carts")
      .selectAll()
      .where("customer_id", "in", customerIds)
      .where("deleted_at", "is", null)
      .orderBy("created_at")
      .orderBy("cart_id")
      .execute();
    for (const row of rows) byCustomer.get(row.customer_id)?.push(toCart(row));
    return byCustomer;
  }
}

// Orders: read side. Placing orders and moving their status arrive with the REST domain issue.
import type { Selectable } from "kysely";
import type { Store } from "../store/database.js";
import type { OrdersTable } from "../store/schema.js";
import { GoneError, NotFoundError } from "./errors.js";
import { parseItems, type LineItem } from "./line-items.js";

export type OrderStatus = "PENDING" | "PAID" | "SHIPPED" | "DELIVERED" | "CANCELLED";

export interface Order {
  orderId: string;
  customerId: string;
  status: OrderStatus;
  items: LineItem[];
  total: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const toOrder = (row: Selectable<OrdersTable>): Order => ({
  orderId: row.order_id,
  customerId: row.customer_id,
  status: row.status as OrderStatus,
  items: parseItems(row.items),
  total: row.total,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

export class OrderService {
  constructor(private readonly store: Store) {}

  async get(orderId: string): Promise<Order> {
    const row = await this.store.db.selectFrom("orders").selectAll().where("order_id", "=", orderId).executeTakeFirst();
    if (!row) throw new NotFoundError("order", orderId);
    if (row.deleted_at) throw new GoneError("order", orderId);
    return toOrder(row);
  }

  /** Live orders of each customer, oldest first, in one query (for batch loading). */
  async forCustomers(customerIds: readonly string[]): Promise<Map<string, Order[]>> {
    const byCustomer = new Map<string, Order[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const rows = await this.store.db
      .selectFrom("orders")
      .selectAll()
      .where("customer_id", "in", customerIds)
      .where("deleted_at", "is", null)
      .orderBy("created_at")
      .orderBy("order_id")
      .execute();
    for (const row of rows) byCustomer.get(row.customer_id)?.push(toOrder(row));
    return byCustomer;
  }
}

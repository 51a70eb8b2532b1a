// Orders: placed for a live customer (total computed here), read, listed, and moved through their lifecycle.
// Every status change is published on the event bus, whichever transport or job caused it.
import type { Kysely, Selectable } from "kysely";
import type { EventBus } from "twinspec/events";
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
import { requireLiveCustomer } from "./live-customer.js";
import { itemsOf, parseItems, totalOf, type LineItem } from "./line-items.js";
import { allowedMoves, canMove, type OrderStatus } from "./order-status.js";
import type { OrdersTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";

export type { OrderStatus };

/** Published on the event bus whenever an order's status changes, however it changed. */
export type OrderStatusChanged = Spec.OrderStatusChange;

declare module "twinspec/events" {
  interface EventMap {
    orderStatusChanged: OrderStatusChanged;
  }
}

/** openapi.yaml's Order, and its version (the ETag). */
export interface Order extends Spec.Order {
  version: number;
}

type OrderRow = Selectable<OrdersTable>;

const projection = projections<OrderRow, Order>(
  {
    orderId: { column: "order_id" },
    customerId: { column: "customer_id" },
    status: { column: "status", read: (value) => value as OrderStatus },
    items: { column: "items", read: parseItems },
    total: { column: "total" },
    createdAt: { column: "created_at" },
    updatedAt: { column: "updated_at" },
    version: { column: "version" },
  },
  ["orderId", "customerId"],
);
const toOrder = projection().map;

/** Inserts an order inside `db` (used by placing and by the checkout job, in their transactions). */
export async function insertOrder(
  db: Kysely<Database>,
  customerId: string,
  items: LineItem[],
  orderId = newId("orders"),
): Promise<Order> {
  const at = now();
  const order: Order = {
    orderId,
    customerId,
    status: "PENDING",
    items: itemsOf(items),
    total: totalOf(items),
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  await db
    .insertInto("orders")
    .values({
      order_id: orderId,
      customer_id: customerId,
      status: order.status,
      items: JSON.stringify(order.items),
      total: order.total,
      version: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .execute();
  return order;
}

export class OrderService {
  private readonly db: Kysely<Database>;
  private readonly bus: EventBus;
  private readonly page;
  /**
   * Live orders of each customer, oldest first, in one query (for batch loading). With `fields`, only those (and
   * the ids) are read: the orders carry no other field.
   */
  readonly listByParents: (customerIds: readonly string[], fields?: readonly string[]) => Promise<Map<string, Order[]>>;

  constructor({ store, bus }: ServiceDeps) {
    const db = (this.db = store.db);
    this.bus = bus;
    const ofCustomer = (customerId: string) =>
      db.selectFrom("orders").selectAll().where("customer_id", "=", customerId).where("deleted_at", "is", null);
    this.page = keysetPager(db, ofCustomer, ["c"], "order_id", (r) => r.order_id, toOrder);
    this.listByParents = liveRowsByParent(db, "orders", "customer_id", "order_id", projection);
  }

  async place(customerId: string, input: { items: LineItem[] }): Promise<Order> {
    return transaction(this.db, async (trx) => {
      await requireLiveCustomer(trx, customerId);
      return insertOrder(trx, customerId, input.items);
    });
  }

  /** The order, or 404; 410 when it or its customer was deleted. */
  async get(orderId: string): Promise<Order> {
    return this.getIn(this.db, orderId);
  }

  /** The customer owning the order (undefined: no such order). */
  async ownerOf(orderId: string): Promise<string | undefined> {
    return (await this.db.selectFrom("orders").select("customer_id").where("order_id", "=", orderId).executeTakeFirst())
      ?.customer_id;
  }

  async list(customerId: string, page: PageRequest): Promise<Page<Order>> {
    await requireLiveCustomer(this.db, customerId);
    return this.page(page, customerId);
  }

  /** Moves the order to `status` if the lifecycle allows it (409 names the allowed moves); same status = no change. */
  async changeStatus(orderId: string, to: OrderStatus, pre?: Preconditions): Promise<Order> {
    const order = await transaction(this.db, async (trx) => {
      await lockRows(trx, "orders", "order_id", [orderId]);
      const current = await this.getIn(trx, orderId);
      if (!holds(pre, current)) throw new PreconditionError("order", orderId);
      if (current.status === to) return current;
      if (!canMove(current.status, to)) {
        const allowed = allowedMoves(current.status);
        throw new ConflictError(
          `order ${orderId} cannot move from ${current.status} to ${to}; allowed: ${allowed.length ? allowed.join(", ") : "none (final status)"}`,
          allowed,
        );
      }
      const updated: Order = { ...current, status: to, version: current.version + 1, updatedAt: now() };
      const result = await trx
        .updateTable("orders")
        .set({ status: to, version: updated.version, updated_at: updated.updatedAt })
        .where("order_id", "=", orderId)
        .where("version", "=", current.version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new PreconditionError("order", orderId);
      // In the change's transaction: the event is delivered if and only if the change commits.
      await this.bus.publish(
        "orderStatusChanged",
        { orderId, customerId: updated.customerId, status: to, sentAt: updated.updatedAt },
        trx,
      );
      return updated;
    });
    return order;
  }

  private async getIn(db: Kysely<Database>, orderId: string): Promise<Order> {
    const row = await db
      .selectFrom("orders")
      .innerJoin("customers", "customers.customer_id", "orders.customer_id")
      .selectAll("orders")
      .select("customers.deleted_at as customer_deleted_at")
      .where("order_id", "=", orderId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("order", orderId);
    if (row.deleted_at || row.customer_deleted_at) throw new GoneError("order", orderId);
    return toOrder(row);
  }
}

export function createService(deps: ServiceDeps): OrderService {
  return new OrderService(deps);
}

// Migration 007_orders_by_customer_covering: a customer's orders are listed far more often than anything else is
// read from the table (GraphQL `orders` under every customer of a page, REST /customers/{id}/orders), and a list
// mostly shows each order's status. With status and deleted_at in the index, such a list is read from the index
// alone, without a lookup of each row in the table. The index keeps its name and its leading columns (same order, same keyset pages).
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_customer").execute();
  await db.schema
    .createIndex("orders_customer")
    .on("orders")
    .columns(["customer_id", "created_at", "order_id", "status", "deleted_at"])
    .execute();
}

// Schema migrations, applied in order on start. Written with Kysely's schema builder so they run on
// SQLite and PostgreSQL alike; never edit one that has shipped — add the next.
import { sql, type Expression, type Kysely, type Migration } from "kysely";
import { isPostgres } from "./dialect.js";

/**
 * Text columns. On PostgreSQL they compare byte-wise (collation "C"), as SQLite's do: ids, ISO timestamps and
 * keyset cursors then sort the same on both, whatever locale the database was created with. SQLite keeps "text".
 */
const text = (db: Kysely<any>): "text" | Expression<unknown> => (isPostgres(db) ? sql`text collate "C"` : "text");

export const migrations: Record<string, Migration> = {
  "001_customers": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("customers")
        .addColumn("customer_id", text(db), (c) => c.primaryKey())
        .addColumn("first_name", text(db), (c) => c.notNull())
        .addColumn("last_name", text(db), (c) => c.notNull())
        .addColumn("email", text(db), (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", text(db), (c) => c.notNull())
        .addColumn("updated_at", text(db), (c) => c.notNull())
        .addColumn("deleted_at", text(db))
        .addColumn("merged_into", text(db))
        .execute();
      await db.schema.createIndex("customers_created").on("customers").columns(["created_at", "customer_id"]).execute();
      // One live customer per email; deleted and merged ones free their address.
      await db.schema
        .createIndex("customers_live_email")
        .unique()
        .on("customers")
        .column("email")
        .where(sql.ref("deleted_at"), "is", null)
        .where(sql.ref("merged_into"), "is", null)
        .execute();
    },
  },
  "002_orders_carts_jobs": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("orders")
        .addColumn("order_id", text(db), (c) => c.primaryKey())
        .addColumn("customer_id", text(db), (c) => c.notNull())
        .addColumn("status", text(db), (c) => c.notNull())
        .addColumn("items", text(db), (c) => c.notNull())
        .addColumn("total", "double precision", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", text(db), (c) => c.notNull())
        .addColumn("updated_at", text(db), (c) => c.notNull())
        .addColumn("deleted_at", text(db))
        .execute();
      await db.schema.createIndex("orders_customer").on("orders").columns(["customer_id", "created_at", "order_id"]).execute();
      await db.schema
        .createTable("carts")
        .addColumn("cart_id", text(db), (c) => c.primaryKey())
        .addColumn("customer_id", text(db), (c) => c.notNull())
        .addColumn("items", text(db), (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", text(db), (c) => c.notNull())
        .addColumn("updated_at", text(db), (c) => c.notNull())
        .addColumn("deleted_at", text(db))
        // set once checkout is accepted: the cart is then frozen
        .addColumn("checkout_job_id", text(db))
        .execute();
      await db.schema.createIndex("carts_customer").on("carts").columns(["customer_id", "created_at", "cart_id"]).execute();
      await db.schema
        .createTable("jobs")
        .addColumn("job_id", text(db), (c) => c.primaryKey())
        .addColumn("kind", text(db), (c) => c.notNull())
        .addColumn("status", text(db), (c) => c.notNull())
        .addColumn("payload", text(db), (c) => c.notNull())
        .addColumn("result", text(db))
        .addColumn("error", text(db))
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", text(db), (c) => c.notNull())
        .addColumn("updated_at", text(db), (c) => c.notNull())
        .addColumn("lease_until", text(db))
        .execute();
      await db.schema.createIndex("jobs_status").on("jobs").columns(["status", "created_at"]).execute();
    },
  },
  "003_idempotency_keys": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("idempotency_keys")
        .addColumn("scope", text(db), (c) => c.notNull())
        .addColumn("key", text(db), (c) => c.notNull())
        .addColumn("fingerprint", text(db), (c) => c.notNull())
        .addColumn("status", "integer")
        .addColumn("headers", text(db))
        .addColumn("body", text(db))
        .addColumn("created_at", text(db), (c) => c.notNull())
        .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "key"])
        .execute();
    },
  },
};

// Kysely table types. Timestamps are ISO-8601 strings and JSON columns are text on every dialect,
// so the domain code is the same on SQLite and PostgreSQL.
import type { Generated } from "kysely";

export interface CustomersTable {
  customer_id: string;
  first_name: string;
  last_name: string;
  email: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** tombstone: set when deleted; the row stays so later requests answer 410 */
  deleted_at: string | null;
  /** set when merged into another customer; the old URL answers 301 */
  merged_into: string | null;
}

export interface OrdersTable {
  order_id: string;
  customer_id: string;
  status: string;
  items: string;
  total: number;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface CartsTable {
  cart_id: string;
  customer_id: string;
  items: string;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  checkout_job_id: string | null;
}

export interface JobsTable {
  job_id: string;
  kind: string;
  status: string;
  payload: string;
  result: string | null;
  error: string | null;
  attempts: Generated<number>;
  version: number;
  created_at: string;
  updated_at: string;
  lease_until: string | null;
}

export interface IdempotencyKeysTable {
  /** whose key it is (the principal's subject), so callers cannot replay each other's responses */
  scope: string;
  key: string;
  /** method, path and body digest of the first request */
  fingerprint: string;
  /** null while the first request is still running */
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
}

export interface Database {
  idempotency_keys: IdempotencyKeysTable;
  customers: CustomersTable;
  orders: OrdersTable;
  carts: CartsTable;
  jobs: JobsTable;
}

// Customers: create, read, list, replace, patch, delete (tombstone), merge; versions for ETags; their avatars
// (src/domain/avatars.ts). Input shapes and field rules are openapi.yaml's (checked by the generated validators on
// both transports); what is here is what a spec cannot say: tombstones, merges, versions.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import {
  isUniqueViolation,
  lockRows,
  transaction,
  type ServiceDeps,
  ConflictError,
  InvalidInputError,
  PreconditionError,
  now,
  encodeCursor,
  projectedPager,
  type Page,
  type PageRequest,
  holds,
  type Preconditions,
  projections,
} from "twinspec";
import { newId } from "../../generated/contract.js";
import { customerReads, type CustomerReads } from "../store/customer-reads.js";
import { CustomerAvatars, deleteAvatarOf } from "./avatars.js";
import { liveRow, requireLive, rowIn } from "./live-customer.js";
// Its rows are generated/database.ts's CustomersTable (from src/migrations): deleted_at is the tombstone (the row stays
// so later requests answer 410), merged_into the customer it was merged into (its old URL answers 301).
import type { CustomersTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";

/** openapi.yaml's Customer, and its version (the ETag). */
export interface Customer extends Spec.Customer {
  version: number;
}

export type CustomerInput = Spec.CustomerInput;

/** Fields to change (a merge patch). The specs refuse null for these; absent and null both leave a field as it is. */
export type CustomerChanges = { [K in keyof CustomerInput]?: CustomerInput[K] | null };

/** Which column each field of a customer is read from: GraphQL reads only the selected ones (projection.ts). */
const projection = projections<Selectable<CustomersTable>, Customer>(
  {
    customerId: { column: "customer_id" },
    firstName: { column: "first_name" },
    lastName: { column: "last_name" },
    email: { column: "email" },
    createdAt: { column: "created_at" },
    updatedAt: { column: "updated_at" },
    version: { column: "version" },
  },
  ["customerId"],
);
const toCustomer = projection().map;

export class CustomerService {
  private readonly reads: CustomerReads;
  private readonly page;
  private readonly db: Kysely<Database>;
  /** the customer's avatar image (src/domain/avatars.ts) */
  readonly avatars: CustomerAvatars;

  constructor({ store }: ServiceDeps) {
    const db = (this.db = store.db);
    this.reads = customerReads(db);
    this.avatars = new CustomerAvatars(db);
    const live = (columns: string[]) => () =>
      db
        .selectFrom("customers")
        .select(columns as (keyof CustomersTable)[])
        .where("deleted_at", "is", null)
        .where("merged_into", "is", null);
    this.page = projectedPager(db, live, [], "customer_id", (r) => r.customer_id);
  }

  /**
   * The live customer, or the reason there is none (404, 410, 301). With `fields` (a GraphQL selection), only those
   * fields and customerId are read: read no other field of it.
   */
  async get(customerId: string, fields?: readonly string[]): Promise<Customer> {
    const found = await this.reads.projected(customerId, projection(fields));
    requireLive(customerId, found !== undefined, found?.state.merged_into, found?.state.deleted_at);
    return found!.model;
  }

  /** Live customers among `ids`, in no particular order (for batch loading). */
  async getMany(ids: readonly string[]): Promise<Customer[]> {
    return (await this.reads.liveRows(ids)).map(toCustomer);
  }

  /**
   * A page of live customers. With `fields` (a GraphQL selection), only those fields and customerId are read: read
   * no other field of them.
   */
  list(page: PageRequest, fields?: readonly string[]): Promise<Page<Customer>> {
    return this.page(projection(fields), page);
  }

  /** Cursor that continues a listing right after `customerId` (GraphQL's `after`). */
  async cursorAfter(customerId: string): Promise<string> {
    const row = await this.reads.row(customerId);
    if (!row)
      throw new InvalidInputError([{ pointer: "/after", message: `no customer ${customerId} to continue after` }]);
    return encodeCursor(row.created_at, row.customer_id);
  }

  /** A new customer, every time: the same input twice makes two customers. */
  async create(input: CustomerInput, customerId = newId("customers")): Promise<Customer> {
    const at = now();
    const customer: Customer = { customerId, ...pick(input), createdAt: at, updatedAt: at, version: 1 };
    await this.db
      .insertInto("customers")
      .values({
        customer_id: customerId,
        first_name: customer.firstName,
        last_name: customer.lastName,
        email: customer.email,
        version: 1,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        merged_into: null,
      })
      .execute();
    return customer;
  }

  /** PUT: creates at a client-chosen id, or replaces the whole state; the same state twice changes nothing. */
  async put(
    customerId: string,
    input: CustomerInput,
    pre?: Preconditions,
  ): Promise<{ customer: Customer; created: boolean }> {
    if (!(await this.reads.row(customerId))) {
      if (!holds(pre, undefined)) throw new PreconditionError("customer", customerId);
      try {
        return { customer: await this.create(input, customerId), created: true };
      } catch (error) {
        // Another PUT created it first: then this one replaces it, as PUT does.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    return { customer: await this.update(customerId, pick(input), pre), created: false };
  }

  /** Changes the given fields; unchanged state keeps its version (and so its ETag). */
  async update(customerId: string, changes: CustomerChanges, pre?: Preconditions): Promise<Customer> {
    return transaction(this.db, async (trx) => {
      await lockRows(trx, "customers", "customer_id", [customerId]);
      const current = toCustomer(await liveRow(trx, customerId));
      if (!holds(pre, current)) throw new PreconditionError("customer", customerId);
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined && v !== null));
      const next = { ...current, ...pick({ ...current, ...given }) };
      if (next.firstName === current.firstName && next.lastName === current.lastName && next.email === current.email)
        return current;
      const updated: Customer = { ...next, version: current.version + 1, updatedAt: now() };
      const result = await trx
        .updateTable("customers")
        .set({
          first_name: updated.firstName,
          last_name: updated.lastName,
          email: updated.email,
          version: updated.version,
          updated_at: updated.updatedAt,
        })
        .where("customer_id", "=", customerId)
        .where("version", "=", current.version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new PreconditionError("customer", customerId);
      return updated;
    });
  }

  /** Tombstones the customer: the row stays so later requests answer 410, never 404. Its avatar is deleted. */
  async delete(customerId: string, pre?: Preconditions): Promise<void> {
    await transaction(this.db, async (trx) => {
      await lockRows(trx, "customers", "customer_id", [customerId]);
      const current = toCustomer(await liveRow(trx, customerId));
      if (!holds(pre, current)) throw new PreconditionError("customer", customerId);
      const at = now();
      await trx
        .updateTable("customers")
        .set({ deleted_at: at, updated_at: at, version: current.version + 1 })
        .where("customer_id", "=", customerId)
        .execute();
      await deleteAvatarOf(trx, customerId);
    });
  }

  /**
   * Moves every order and cart of `customerId` to `into`; afterwards the old customer answers 301 → `into`.
   * Returns the surviving customer.
   */
  async merge(customerId: string, into: string): Promise<Customer> {
    if (into === customerId) throw new ConflictError("a customer cannot be merged into itself");
    return transaction(this.db, async (trx) => {
      await lockRows(trx, "customers", "customer_id", [customerId, into]);
      const from = toCustomer(await liveRow(trx, customerId));
      const targetRow = await rowIn(trx, into);
      if (!targetRow || targetRow.deleted_at || targetRow.merged_into) {
        throw new ConflictError(
          `cannot merge into ${into}: ${!targetRow ? "no such customer" : targetRow.deleted_at ? "it was deleted" : `it was merged into ${targetRow.merged_into}`}`,
        );
      }
      const at = now();
      await trx.updateTable("orders").set({ customer_id: into }).where("customer_id", "=", customerId).execute();
      await trx.updateTable("carts").set({ customer_id: into }).where("customer_id", "=", customerId).execute();
      await trx
        .updateTable("customers")
        .set({ merged_into: into, updated_at: at, version: from.version + 1 })
        .where("customer_id", "=", customerId)
        .execute();
      return toCustomer(targetRow);
    });
  }
}

export function createService(deps: ServiceDeps): CustomerService {
  return new CustomerService(deps);
}

/** Only the writable fields, in a fixed order. */
function pick(input: CustomerInput): CustomerInput {
  return { firstName: input.firstName, lastName: input.lastName, email: input.email };
}

// Customers: create, read, list, replace, patch, delete (tombstone), with versions for ETags.
import type { Kysely, Selectable } from "kysely";
import type { Store } from "../store/database.js";
import { isUniqueViolation } from "../store/dialect.js";
import { prepared } from "../store/prepared.js";
import { lockRows, transaction } from "../store/transactions.js";
import type { CustomersTable, Database } from "../store/schema.js";
import { ConflictError, GoneError, InvalidInputError, MovedError, NotFoundError, PreconditionError } from "./errors.js";
import { newId, now } from "./ids.js";
import { encodeCursor, keysetPage, type Page, type PageRequest } from "./pagination.js";
import { holds, type Preconditions } from "./preconditions.js";
import { checkFields, email, id, name } from "./rules.js";

export interface Customer {
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface CustomerInput {
  firstName: string;
  lastName: string;
  email: string;
}

/** Fields to change; null is rejected (a required field cannot be removed). */
export type CustomerChanges = { [K in keyof CustomerInput]?: CustomerInput[K] | null };

const FIELDS = { firstName: name, lastName: name, email };
const REQUIRED = Object.keys(FIELDS);

const toCustomer = (row: Selectable<CustomersTable>): Customer => ({
  customerId: row.customer_id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

function validInput(input: Record<string, unknown>, required: string[]): void {
  const errors = checkFields(input, FIELDS, required);
  if (errors.length > 0) throw new InvalidInputError(errors);
}

/** A customer row that can be acted on, or the reason it cannot: 404, 410 (deleted), 301 (merged). */
export function live(customerId: string, row: Selectable<CustomersTable> | undefined): Selectable<CustomersTable> {
  if (!row) throw new NotFoundError("customer", customerId);
  if (row.merged_into) throw new MovedError("customer", customerId, row.merged_into);
  if (row.deleted_at) throw new GoneError("customer", customerId);
  return row;
}

/** Checks, inside `db` (a transaction or not), that the customer can own new things. */
export async function requireLiveCustomer(db: Kysely<Database>, customerId: string): Promise<void> {
  // Held until the caller commits, so a concurrent delete or merge waits and then sees what was added.
  await lockRows(db, "customers", [customerId], "share");
  live(customerId, await db.selectFrom("customers").selectAll().where("customer_id", "=", customerId).executeTakeFirst());
}

export class CustomerService {
  // The lookup behind every read of a customer: built once.
  private readonly byId;

  constructor(private readonly store: Store) {
    this.byId = prepared(store.db, (customerId: string) => store.db.selectFrom("customers").selectAll().where("customer_id", "=", customerId), ["sample"]);
  }

  private async row(customerId: string) {
    return (await this.byId(customerId))[0];
  }

  /** The live customer, or the reason there is none (404, 410, 301). */
  async get(customerId: string): Promise<Customer> {
    return toCustomer(live(customerId, await this.row(customerId)));
  }

  /** Live customers among `ids`, in no particular order (for batch loading). */
  async getMany(ids: readonly string[]): Promise<Customer[]> {
    if (ids.length === 0) return [];
    const rows = await this.store.db
      .selectFrom("customers")
      .selectAll()
      .where("customer_id", "in", ids)
      .where("deleted_at", "is", null)
      .where("merged_into", "is", null)
      .execute();
    return rows.map(toCustomer);
  }

  list(page: PageRequest): Promise<Page<Customer>> {
    const live = this.store.db.selectFrom("customers").selectAll().where("deleted_at", "is", null).where("merged_into", "is", null);
    return keysetPage(live, "customer_id", (r) => r.customer_id, page, toCustomer);
  }

  /** Cursor that continues a listing right after `customerId` (GraphQL's `after`). */
  async cursorAfter(customerId: string): Promise<string> {
    const row = await this.row(customerId);
    if (!row) throw new InvalidInputError([{ pointer: "/after", message: `no customer ${customerId} to continue after` }]);
    return encodeCursor(row.created_at, row.customer_id);
  }

  async create(input: CustomerInput, customerId = newId("cus")): Promise<Customer> {
    validInput({ ...input }, REQUIRED);
    const at = now();
    const customer: Customer = { customerId, ...pick(input), createdAt: at, updatedAt: at, version: 1 };
    try {
      await this.store.db
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
    } catch (error) {
      // The email of another live customer — or, for two PUTs racing to create one id, that id.
      if (isUniqueViolation(error)) throw new ConflictError(`another customer already uses the email ${customer.email} or the id ${customerId}`);
      throw error;
    }
    return customer;
  }

  /** PUT: creates at a client-chosen id, or replaces the whole state; the same state twice changes nothing. */
  async put(customerId: string, input: CustomerInput, pre?: Preconditions): Promise<{ customer: Customer; created: boolean }> {
    const idError = id(customerId);
    if (idError) throw new InvalidInputError([{ pointer: "/customerId", message: idError }]);
    validInput({ ...input }, REQUIRED);
    const row = await this.row(customerId);
    if (!row) {
      if (pre?.versions) throw new PreconditionError("customer", customerId);
      return { customer: await this.create(input, customerId), created: true };
    }
    return { customer: await this.update(customerId, pick(input), pre), created: false };
  }

  /** Changes the given fields; unchanged state keeps its version (and so its ETag). */
  async update(customerId: string, changes: CustomerChanges, pre?: Preconditions): Promise<Customer> {
    validInput({ ...changes }, []);
    if (Object.keys(changes).length === 0) throw new InvalidInputError([{ pointer: "", message: "must change at least one field" }]);
    return transaction(this.store.db, async (trx) => {
      await lockRows(trx, "customers", [customerId]);
      const row = await trx.selectFrom("customers").selectAll().where("customer_id", "=", customerId).executeTakeFirst();
      const current = toCustomer(live(customerId, row));
      if (!holds(pre, current)) throw new PreconditionError("customer", customerId);
      const next = { ...current, ...pick({ ...current, ...(changes as Partial<CustomerInput>) }) };
      if (next.firstName === current.firstName && next.lastName === current.lastName && next.email === current.email) return current;
      const updated: Customer = { ...next, version: current.version + 1, updatedAt: now() };
      try {
        const result = await trx
          .updateTable("customers")
          .set({ first_name: updated.firstName, last_name: updated.lastName, email: updated.email, version: updated.version, updated_at: updated.updatedAt })
          .where("customer_id", "=", customerId)
          .where("version", "=", current.version)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new PreconditionError("customer", customerId);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(`another customer already uses the email ${updated.email}`);
        throw error;
      }
      return updated;
    });
  }

  /** Tombstones the customer: the row stays so later requests answer 410, never 404. */
  async delete(customerId: string, pre?: Preconditions): Promise<void> {
    await transaction(this.store.db, async (trx) => {
      await lockRows(trx, "customers", [customerId]);
      const row = await trx.selectFrom("customers").selectAll().where("customer_id", "=", customerId).executeTakeFirst();
      const current = toCustomer(live(customerId, row));
      if (!holds(pre, current)) throw new PreconditionError("customer", customerId);
      const at = now();
      await trx
        .updateTable("customers")
        .set({ deleted_at: at, updated_at: at, version: current.version + 1 })
        .where("customer_id", "=", customerId)
        .execute();
    });
  }

  /**
   * Moves every order and cart of `customerId` to `into`; afterwards the old customer answers 301 → `into`.
   * Returns the surviving customer.
   */
  async merge(customerId: string, into: string): Promise<Customer> {
    const idError = id(into);
    if (idError) throw new InvalidInputError([{ pointer: "/into", message: idError }]);
    if (into === customerId) throw new ConflictError("a customer cannot be merged into itself");
    return transaction(this.store.db, async (trx) => {
      await lockRows(trx, "customers", [customerId, into]);
      const from = toCustomer(live(customerId, await trx.selectFrom("customers").selectAll().where("customer_id", "=", customerId).executeTakeFirst()));
      const targetRow = await trx.selectFrom("customers").selectAll().where("customer_id", "=", into).executeTakeFirst();
      if (!targetRow || targetRow.deleted_at || targetRow.merged_into) {
        throw new ConflictError(`cannot merge into ${into}: ${!targetRow ? "no such customer" : targetRow.deleted_at ? "it was deleted" : `it was merged into ${targetRow.merged_into}`}`);
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

/** Only the writable fields, in a fixed order (drops anything else the caller sent). */
function pick(input: CustomerInput): CustomerInput {
  return { firstName: input.firstName, lastName: input.lastName, email: input.email };
}

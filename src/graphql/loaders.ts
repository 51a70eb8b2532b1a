// Per-request DataLoaders: one query per relationship per tick, whatever the number of parents (no N+1). A list
// relationship gets a loader per set of selected fields, so its one query reads only the columns the query needs.
import DataLoader from "dataloader";
import type { Services } from "../../generated/wiring.js";
import type { Cart } from "../domain/carts.js";
import type { Customer } from "../domain/customers.js";
import { NotFoundError } from "twinspec";
import type { Order } from "../domain/orders.js";

export interface Loaders {
  /** a live customer; a missing or deleted one fails its load with NOT_FOUND */
  customer: DataLoader<string, Customer>;
  /** a customer's orders, with the given fields (from selectedFields) */
  ordersOfCustomer(fields: readonly string[]): DataLoader<string, Order[]>;
  cartsOfCustomer(fields: readonly string[]): DataLoader<string, Cart[]>;
}

/** One loader per distinct `fields` (the same array object for every parent of one document's field). */
function byFields<T>(load: (ids: readonly string[], fields: readonly string[]) => Promise<Map<string, T[]>>) {
  const loaders = new Map<readonly string[], DataLoader<string, T[]>>();
  return (fields: readonly string[]) => {
    let loader = loaders.get(fields);
    if (!loader) {
      loader = new DataLoader<string, T[]>(async (ids) => {
        const found = await load(ids, fields);
        return ids.map((id) => found.get(id)!);
      });
      loaders.set(fields, loader);
    }
    return loader;
  };
}

export function createLoaders(services: Services): Loaders {
  return {
    customer: new DataLoader<string, Customer>(async (ids) => {
      const found = new Map((await services.customers.getMany(ids)).map((c) => [c.customerId, c]));
      return ids.map((id) => found.get(id) ?? new NotFoundError("customer", id));
    }),
    ordersOfCustomer: byFields((ids, fields) => services.orders.forCustomers(ids, fields)),
    cartsOfCustomer: byFields((ids, fields) => services.carts.forCustomers(ids, fields)),
  };
}

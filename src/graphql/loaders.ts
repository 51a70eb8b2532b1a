// Per-request DataLoaders: one query per relationship per tick, whatever the number of parents (no N+1).
import DataLoader from "dataloader";
import type { Cart } from "../domain/carts.js";
import type { Customer } from "../domain/customers.js";
import type { Order } from "../domain/orders.js";
import { NotFoundError } from "../domain/errors.js";
import type { Services } from "../../generated/wiring.js";

export interface Loaders {
  /** a live customer; a missing or deleted one fails its load with NOT_FOUND */
  customer: DataLoader<string, Customer>;
  ordersOfCustomer: DataLoader<string, Order[]>;
  cartsOfCustomer: DataLoader<string, Cart[]>;
}

export function createLoaders(services: Services): Loaders {
  return {
    customer: new DataLoader<string, Customer>(async (ids) => {
      const found = new Map((await services.customers.getMany(ids)).map((c) => [c.customerId, c]));
      return ids.map((id) => found.get(id) ?? new NotFoundError("customer", id));
    }),
    ordersOfCustomer: new DataLoader(async (ids) => {
      const byCustomer = await services.orders.forCustomers(ids);
      return ids.map((id) => byCustomer.get(id)!);
    }),
    cartsOfCustomer: new DataLoader(async (ids) => {
      const byCustomer = await services.carts.forCustomers(ids);
      return ids.map((id) => byCustomer.get(id)!);
    }),
  };
}

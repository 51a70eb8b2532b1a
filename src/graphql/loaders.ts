// Per-request DataLoaders the application writes itself: a relation paired with a REST collection (Customer.orders,
// Order.notes) is generated over its own batch loader (generated/wiring.ts); what is left here is the way back from
// an order or a cart to its customer, which no REST collection lists.
import DataLoader from "dataloader";
import type { Services } from "../../generated/wiring.js";
import type { Customer } from "../domain/customers.js";
import { NotFoundError } from "twinspec";

export interface Loaders {
  /** a live customer; a missing or deleted one fails its load with NOT_FOUND */
  customer: DataLoader<string, Customer>;
}

export function createLoaders(services: Services): Loaders {
  return {
    customer: new DataLoader<string, Customer>(async (ids) => {
      const found = new Map((await services.customers.getMany(ids)).map((c) => [c.customerId, c]));
      return ids.map((id) => found.get(id) ?? new NotFoundError("customer", id));
    }),
  };
}

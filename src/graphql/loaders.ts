// Per-request DataLoaders the application writes itself. None is left: every relation is paired with the REST
// operation that reads it (a collection: Customer.orders, Order.notes; a lookup: Order.customer, Cart.customer), and
// generate writes its resolver over a batch loader of its own (generated/wiring.ts).
import type { Services } from "../../generated/wiring.js";

export function createLoaders(services: Services) {
  void services;
  return {};
}

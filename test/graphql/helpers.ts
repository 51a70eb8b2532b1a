// Helpers for the GraphQL tests: seeding through the domain, reading metrics, waiting for a condition.
import type { TestServer } from "../support/server.js";
import { call } from "../support/server.js";
import { until as waitUntil } from "../support/wait.js";

export const ITEMS = [{ sku: "BOOK-1", quantity: 2, unitPrice: 12.5 }];

/** A customer with `orders` orders and `carts` carts, made through the domain services. */
export async function seedCustomer(s: TestServer, n: number, { orders = 0, carts = 0 } = {}) {
  const { customers, orders: orderService, carts: cartService } = s.app.services;
  const customer = await customers.create({ firstName: `First${n}`, lastName: `Last${n}`, email: `c${n}@example.com` });
  for (let i = 0; i < orders; i++) await orderService.place(customer.customerId, { items: ITEMS });
  for (let i = 0; i < carts; i++) await cartService.create(customer.customerId, { items: ITEMS });
  return customer;
}

/** One sample of a Prometheus metric (without labels, or with the given label text). */
export async function metric(s: TestServer, name: string, labels = ""): Promise<number> {
  const { text } = await call(`${s.url}/metrics`);
  const line = text.split("\n").find((l) => l.startsWith(labels ? `${name}{${labels}}` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

export { sleep } from "../support/wait.js";

/** Waits as the subscription tests need: short bound, close polling. */
export const until = (condition: () => boolean | Promise<boolean>, what: string, ms = 3000) =>
  waitUntil(condition, what, ms, 10);

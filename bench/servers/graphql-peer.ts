// The same schema.graphql served by a peer (GraphQL Yoga or Apollo Server) over data held in memory: the
// customers and orders exported from our seeded server (BENCH_DATA, a JSON file). Prints {"url":…} when listening.
import { readFileSync } from "node:fs";

interface Order {
  orderId: string;
  customerId: string;
  status: string;
  [field: string]: unknown;
}
interface Customer {
  customerId: string;
  orders: Order[];
  [field: string]: unknown;
}

export const typeDefs = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
const customers = JSON.parse(readFileSync(process.env.BENCH_DATA!, "utf8")) as Customer[];
const byId = new Map(customers.map((c) => [c.customerId, c]));
const orders = new Map(customers.flatMap((c) => c.orders.map((o) => [o.orderId, o] as const)));

export const resolvers = {
  Query: {
    customer: (_: unknown, { customerId }: { customerId: string }) => byId.get(customerId) ?? null,
    customers: (_: unknown, { first, after }: { first?: number; after?: string }) => {
      const start = after ? customers.findIndex((c) => c.customerId === after) + 1 : 0;
      return customers.slice(start, start + (first ?? 20));
    },
    order: (_: unknown, { orderId }: { orderId: string }) => orders.get(orderId) ?? null,
  },
  Customer: { orders: (c: Customer) => c.orders, carts: () => [] },
  Order: { customer: (o: Order) => byId.get(o.customerId) },
};

export const announce = (url: string) => console.log(JSON.stringify({ url }));

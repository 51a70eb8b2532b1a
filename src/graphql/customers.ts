// GraphQL adapter for customers: root fields and the Customer type's relationships.
import type { Resolvers } from "../../generated/graphql.js";
import { inArguments } from "./errors.js";

export const customerResolvers = {
  Query: {
    customer: (_, { customerId }, { services }) => services.customers.get(customerId),
    customers: async (_, { first, after }, { services, loaders }) => {
      // `after` is a customerId: continue right after that customer.
      const page = await inArguments({ "/after": "after", "/limit": "first" }, async () =>
        services.customers.list({ limit: first ?? 20, cursor: after ? await services.customers.cursorAfter(after) : undefined }),
      );
      for (const c of page.items) loaders.customer.prime(c.customerId, c);
      return page.items;
    },
  },
  Mutation: {
    createCustomer: (_, { input }, { services }) => inArguments("input", () => services.customers.create(input)),
    updateCustomer: (_, { customerId, input }, { services }) => inArguments("input", () => services.customers.update(customerId, input)),
    deleteCustomer: async (_, { customerId }, { services }) => {
      await services.customers.delete(customerId);
      return customerId;
    },
  },
  Customer: {
    orders: (customer, _, { loaders }) => loaders.ordersOfCustomer.load(customer.customerId),
    carts: (customer, _, { loaders }) => loaders.cartsOfCustomer.load(customer.customerId),
  },
} satisfies Resolvers;


// GraphQL resolvers for the customers fields of schema.graphql: thin calls into the domain (src/domain/customers.ts).
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";
import { primeLookup, selectedFields } from "twinspec";

export const resolvers: ResolversByTag["customers"] = {
  Query: {
    // Only the selected fields' columns are read (three of the seven for a typical query).
    customer: (_, { customerId }, { services }, info) => services.customers.get(customerId, selectedFields(info)),
    customers: async (_, { first, after }, context) => {
      const { services } = context;
      // `after` is a customerId: continue right after that customer.
      const cursor = after ? await services.customers.cursorAfter(after) : undefined;
      const page = await services.customers.list({ limit: first ?? 20, cursor });
      // Order.customer and Cart.customer under them cost no query: their loader knows these already.
      for (const c of page.items) primeLookup(context, "customers", c.customerId, c);
      return page.items;
    },
  },
  Mutation: {
    createCustomer: (_, { input }, { services }) => services.customers.create(input),
    updateCustomer: (_, { customerId, input }, { services }) => services.customers.update(customerId, input),
    deleteCustomer: async (_, { customerId }, { services }) => {
      await services.customers.delete(customerId);
      return customerId;
    },
  },
};

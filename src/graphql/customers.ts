// GraphQL resolvers for the customers fields of schema.graphql: thin calls into the domain (src/domain/customers.ts).
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";
import { primeLookup, selectedFields, selectsOwnType } from "twinspec";

export const resolvers: ResolversByTag["customers"] = {
  Query: {
    // Only the selected fields' columns are read (three of the seven for a typical query).
    customer: (_, { customerId }, { services }, info) => services.customers.get(customerId, selectedFields(info)),
    customers: async (_, { first, after }, context, info) => {
      const { services } = context;
      // `after` is a customerId: continue right after that customer.
      const cursor = after ? await services.customers.cursorAfter(after) : undefined;
      // A customer selected again below (orders { customer }) is answered from this page: then it holds whole
      // customers, and Order.customer and Cart.customer cost no query. Otherwise only the selected fields are read.
      const whole = selectsOwnType(info);
      const page = await services.customers.list(
        { limit: first ?? 20, cursor },
        whole ? undefined : selectedFields(info),
      );
      if (whole) for (const c of page.items) primeLookup(context, "customers", c.customerId, c);
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

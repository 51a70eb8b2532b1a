// GraphQL adapter for orders (read side; writes arrive with the REST domain issue).
import type { Resolvers } from "../../generated/graphql.js";
import { NotFoundError } from "../domain/errors.js";

export const orderResolvers = {
  Query: {
    order: (_, { orderId }, { services }) => services.orders.get(orderId),
  },
  Order: {
    customer: async (order, _, { loaders }) => (await loaders.customer.load(order.customerId)) ?? Promise.reject(new NotFoundError("customer", order.customerId)),
  },
} satisfies Resolvers;

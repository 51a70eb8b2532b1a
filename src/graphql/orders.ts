// GraphQL adapter for orders: thin calls into the same domain service REST uses.
import type { Resolvers } from "../../generated/graphql.js";
import { inArguments } from "./errors.js";

export const orderResolvers = {
  Query: {
    order: (_, { orderId }, { services }) => services.orders.get(orderId),
  },
  Mutation: {
    placeOrder: (_, { customerId, input }, { services }) => inArguments("input", () => services.orders.place(customerId, input)),
    updateOrderStatus: (_, { orderId, status }, { services }) => inArguments({ "/status": "status" }, () => services.orders.changeStatus(orderId, status)),
  },
  Order: {
    customer: (order, _, { loaders }) => loaders.customer.load(order.customerId),
  },
} satisfies Resolvers;

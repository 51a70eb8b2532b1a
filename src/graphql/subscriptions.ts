// Subscription resolvers: order status changes of one customer, from the store's event bus, so a change made
// over REST, GraphQL or by the checkout job reaches every subscriber.
import type { OrderStatus, Resolvers } from "../../generated/graphql.js";
import type { OrderStatusChanged } from "../store/events.js";

export const subscriptionResolvers = {
  Subscription: {
    orderStatusChanged: {
      subscribe: async (_, { customerId }, { services, streams }) => {
        // NOT_FOUND / GONE before anything is listened to.
        await services.customers.get(customerId);
        return streams.listen(services.bus, "orderStatusChanged", (event) => event.customerId === customerId);
      },
      resolve: (event: OrderStatusChanged) => ({ ...event, status: event.status as OrderStatus }),
    },
  },
} satisfies Resolvers;

// GraphQL resolvers for the orders fields of schema.graphql: thin calls into the domain (src/domain/orders.ts), and
// the subscription to status changes, fed by the store's event bus (so a change made over REST, GraphQL or by the
// checkout job reaches every subscriber).
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";
import type { OrderStatusChanged } from "../domain/orders.js";

export const resolvers: ResolversByTag["orders"] = {
  Query: {
    order: (_, { orderId }, { services }) => services.orders.get(orderId),
  },
  Mutation: {
    placeOrder: (_, { customerId, input }, { services }) => services.orders.place(customerId, input),
    updateOrderStatus: (_, { orderId, status }, { services }) => services.orders.changeStatus(orderId, status),
  },
  Subscription: {
    orderStatusChanged: {
      subscribe: async (_, { customerId, after }, { services, streams, bus, lastEventId }) => {
        // NOT_FOUND / GONE before anything is listened to.
        await services.customers.get(customerId);
        // after (graphql-ws) or SSE's Last-Event-ID: resume from the event log, then live.
        return streams.listen(
          bus,
          "orderStatusChanged",
          (event) => event.customerId === customerId,
          after ?? lastEventId,
        );
      },
      resolve: (event: OrderStatusChanged) => event,
    },
  },
};

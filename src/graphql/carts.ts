// GraphQL resolvers for the carts fields of schema.graphql: thin calls into the domain (src/domain/carts.ts).
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["carts"] = {
  Query: {
    cart: (_, { cartId }, { services }) => services.carts.get(cartId),
  },
  Mutation: {
    createCart: (_, { customerId, input }, { services }) => services.carts.create(customerId, input),
    replaceCartItems: (_, { cartId, input }, { services }) => services.carts.replaceItems(cartId, input),
    deleteCart: async (_, { cartId }, { services }) => {
      await services.carts.delete(cartId);
      return cartId;
    },
    checkoutCart: (_, { cartId }, { services }) => services.carts.checkout(cartId),
  },
};

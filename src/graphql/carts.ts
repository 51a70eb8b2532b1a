// GraphQL adapter for carts and checkout: thin calls into the same domain service REST uses.
import type { Resolvers } from "../../generated/graphql.js";
import { inArguments } from "./errors.js";

export const cartResolvers = {
  Query: {
    cart: (_, { cartId }, { services }) => services.carts.get(cartId),
  },
  Mutation: {
    createCart: (_, { customerId, input }, { services }) => inArguments("input", () => services.carts.create(customerId, input)),
    replaceCartItems: (_, { cartId, input }, { services }) => inArguments("input", () => services.carts.replaceItems(cartId, input)),
    deleteCart: async (_, { cartId }, { services }) => {
      await services.carts.delete(cartId);
      return cartId;
    },
    checkoutCart: (_, { cartId }, { services }) => services.carts.checkout(cartId),
  },
  Cart: {
    customer: (cart, _, { loaders }) => loaders.customer.load(cart.customerId),
  },
} satisfies Resolvers;

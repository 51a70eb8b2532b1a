// GraphQL adapter for carts (read side; writes arrive with the REST domain issue).
import type { Resolvers } from "../../generated/graphql.js";
import { NotFoundError } from "../domain/errors.js";

export const cartResolvers = {
  Query: {
    cart: (_, { cartId }, { services }) => services.carts.get(cartId),
  },
  Cart: {
    customer: async (cart, _, { loaders }) => (await loaders.customer.load(cart.customerId)) ?? Promise.reject(new NotFoundError("customer", cart.customerId)),
  },
} satisfies Resolvers;

// GraphQL resolvers for the notes fields of schema.graphql: thin calls into the domain (src/domain/notes.ts).
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["notes"] = {
  Query: {
    orderNote: (_, { noteId }, { services }) => services.notes.get(noteId),
  },
  Mutation: {
    addOrderNote: (_, { orderId, input }, { services }) => services.notes.add(orderId, input),
  },
};

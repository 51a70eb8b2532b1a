// GraphQL resolvers for the books fields of schema.graphql: thin calls into the domain (src/domain/books.ts).
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["books"] = {
  Query: {
    book: (_, { bookId }, { services }) => services.books.get(bookId),
  },
  Mutation: {
    addBook: (_, { input }, { services }) =>
      services.books.add({ title: input.title, isbn: input.isbn ?? undefined, copies: input.copies }),
  },
};

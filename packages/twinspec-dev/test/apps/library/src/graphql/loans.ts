// GraphQL resolvers for the loans fields of schema.graphql: thin calls into the domain (src/domain/loans.ts).
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["loans"] = {
  Query: {
    loan: (_, { loanId }, { services }) => services.loans.get(loanId),
  },
  Mutation: {
    borrowBook: (_, { memberId, input }, { services }) =>
      services.loans.borrow(memberId, { bookId: input.bookId, note: input.note ?? undefined }),
    returnLoan: (_, { loanId }, { services }) => services.loans.return(loanId),
  },
};

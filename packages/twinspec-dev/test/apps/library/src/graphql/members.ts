// GraphQL resolvers for the members fields of schema.graphql: thin calls into the domain (src/domain/members.ts).
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["members"] = {
  Query: {
    member: (_, { memberId }, { services }) => services.members.get(memberId),
    members: async (_, { first, after }, { services }) => {
      const cursor = after ? await services.members.cursorAfter(after) : undefined;
      return (await services.members.list({ limit: first ?? 20, cursor })).items;
    },
  },
  Mutation: {
    createMember: (_, { input }, { services }) =>
      services.members.create({ name: input.name, email: input.email ?? undefined }),
  },
};

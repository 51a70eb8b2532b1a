// GraphQL resolvers for the jobs fields of schema.graphql: the status monitor of asynchronous work.
// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.
import type { ResolversByTag } from "../../generated/resolvers.js";

export const resolvers: ResolversByTag["jobs"] = {
  Query: {
    job: (_, { jobId }, { services }) => services.jobs.get(jobId),
  },
  JobResult: {
    order: (result, _, { services }) => services.orders.get(result.orderId),
  },
};

// GraphQL adapter for jobs: the status monitor of asynchronous work.
import type { Resolvers } from "../../generated/graphql.js";

export const jobResolvers = {
  Query: {
    job: (_, { jobId }, { services }) => services.jobs.get(jobId),
  },
  JobResult: {
    order: (result, _, { services }) => services.orders.get(result.orderId),
  },
} satisfies Resolvers;

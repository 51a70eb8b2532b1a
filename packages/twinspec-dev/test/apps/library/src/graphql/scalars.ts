// The custom scalars of schema.graphql. `npm run generate` wrote this file; DateTime is Twinspec's (RFC 3339 strings).
import { DateTime } from "twinspec";
import type { ScalarResolvers } from "../../generated/resolvers.js";

/** Every custom scalar of schema.graphql (generated/resolvers.ts asks for each one). */
export const scalars: ScalarResolvers = {
  DateTime,
};

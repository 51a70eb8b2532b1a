// The executable schema: schema.graphql (loaded at start) + the resolvers of every type.
// Root fields without a resolver answer NOT_IMPLEMENTED, so the whole contract is reachable from day one.
import { readFileSync } from "node:fs";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { isObjectType, type GraphQLSchema } from "graphql";
import { cartResolvers } from "./carts.js";
import { customerResolvers } from "./customers.js";
import { notImplemented } from "./errors.js";
import { jobResolvers } from "./jobs.js";
import { orderResolvers } from "./orders.js";
import { DateTime } from "./scalars.js";

export function loadTypeDefs(file = "schema.graphql"): string {
  return readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
}

export function buildSchema(typeDefs = loadTypeDefs()): GraphQLSchema {
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: [{ DateTime }, customerResolvers, orderResolvers, cartResolvers, jobResolvers],
  });
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!isObjectType(root)) continue;
    for (const field of Object.values(root.getFields())) {
      if (root === schema.getSubscriptionType() ? field.subscribe : field.resolve) continue;
      const fail = () => {
        throw notImplemented(`${root.name}.${field.name}`);
      };
      field.resolve = fail;
      if (root === schema.getSubscriptionType()) field.subscribe = fail;
    }
  }
  return schema;
}

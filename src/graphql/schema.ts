// The executable schema: schema.graphql (loaded at start) + the resolvers of every type.
// Root fields without a resolver answer NOT_IMPLEMENTED, so the whole contract is reachable from day one.
// Every resolver is wrapped so that what it throws leaves as a coded GraphQLError (errors.ts).
import { readFileSync } from "node:fs";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { cartResolvers } from "./carts.js";
import type { GraphqlContext } from "./context.js";
import { customerResolvers } from "./customers.js";
import { notImplemented, toGraphqlError } from "./errors.js";
import { jobResolvers } from "./jobs.js";
import { orderResolvers } from "./orders.js";
import { DateTime } from "./scalars.js";
import { subscriptionResolvers } from "./subscriptions.js";

export function loadTypeDefs(file = "schema.graphql"): string {
  return readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
}

export function buildSchema(typeDefs = loadTypeDefs()): GraphQLSchema {
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: [{ DateTime }, customerResolvers, orderResolvers, cartResolvers, jobResolvers, subscriptionResolvers],
  });
  const subscription = schema.getSubscriptionType();
  for (const root of [schema.getQueryType(), schema.getMutationType(), subscription]) {
    if (!isObjectType(root)) continue;
    for (const field of Object.values(root.getFields())) {
      if (root === subscription ? field.subscribe : field.resolve) continue;
      const fail = () => {
        throw notImplemented(`${root.name}.${field.name}`);
      };
      field.resolve = fail;
      if (root === subscription) field.subscribe = fail;
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = coded(field.resolve);
      if (field.subscribe) field.subscribe = coded(field.subscribe);
    }
  }
  return schema;
}

/** Same resolver; a throw or rejection becomes a coded GraphQLError (domain outcome, or masked and logged). */
function coded(resolve: GraphQLFieldResolver<unknown, GraphqlContext>): GraphQLFieldResolver<unknown, GraphqlContext> {
  return (source, args, context, info) => {
    try {
      const result = resolve(source, args, context, info);
      return result instanceof Promise ? result.catch((error) => Promise.reject(toGraphqlError(error, context))) : result;
    } catch (error) {
      throw toGraphqlError(error, context);
    }
  };
}

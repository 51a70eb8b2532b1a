// The executable schema: schema.graphql (loaded at start) + the resolvers of every tag (generated/wiring.ts).
// Root fields without a resolver answer NOT_IMPLEMENTED, so the whole contract is reachable from day one. A root
// field's arguments are checked by the validators of its paired REST operation before it runs. Every resolver is
// wrapped so that what it throws leaves as a coded GraphQLError (errors.ts).
import { readFileSync } from "node:fs";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { isObjectType, type GraphQLArgument, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { withParentsGraphql } from "../auth/parents.js";
import type { AppDefinition, ContractFacts, InputRules, ParentCheck } from "../definition.js";
import { withPartTypeDefs } from "../parts/files.js";
import { NotImplementedError } from "../domain/errors.js";
import { projectFile } from "../paths.js";
import type { GraphqlContext } from "./context.js";
import { toGraphqlError } from "./errors.js";
import { checkArguments } from "./inputs.js";

/**
 * schema.graphql, with the SDL of the Twinspec parts the application includes after it (parts/files.ts).
 *
 * @param file - the schema's file under the application's root (default schema.graphql)
 * @param contract - the application's contract: its `parts`, and its `webhooks` (their names); default none
 */
export function loadTypeDefs(
  file = "schema.graphql",
  contract: Pick<ContractFacts, "parts" | "webhooks"> = {},
): string {
  return withPartTypeDefs(
    readFileSync(projectFile(file), "utf8"),
    contract.parts ?? [],
    Object.keys(contract.webhooks ?? {}),
  );
}

/** With `parents`, the root fields of resources owned through a parent check it first (auth/parents.ts), after their arguments. */
export function buildSchema(
  definition: Pick<AppDefinition, "resolvers" | "contract">,
  typeDefs = loadTypeDefs(undefined, definition.contract),
  parents?: ParentCheck,
): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs, resolvers: definition.resolvers });
  return guardResolvers(
    parents ? withParentsGraphql(schema, definition.contract.graphqlParents, parents) : schema,
    definition.contract.graphqlInputs,
  );
}

/**
 * What every executable schema of schema.graphql gets around its resolvers, whatever they are (the domain's, or the
 * mock's): NOT_IMPLEMENTED for a root field without one, the paired operation's argument checks, coded errors.
 */
export function guardResolvers(
  schema: GraphQLSchema,
  graphqlInputs: Readonly<Record<string, InputRules>>,
): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  for (const root of [schema.getQueryType(), schema.getMutationType(), subscription]) {
    if (!isObjectType(root)) continue;
    for (const field of Object.values(root.getFields())) {
      const coordinate = `${root.name}.${field.name}`;
      if (!(root === subscription ? field.subscribe : field.resolve)) {
        const fail = () => {
          throw new NotImplementedError(coordinate);
        };
        field.resolve = fail;
        if (root === subscription) field.subscribe = fail;
        continue;
      }
      const rules = graphqlInputs[coordinate];
      if (!rules) continue;
      const key = root === subscription ? "subscribe" : "resolve";
      const inner = field[key]!;
      field[key] = (source, args, context, info) => {
        checkArguments(rules, args);
        return inner(source, args, context, info);
      };
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = coded(field.resolve, field.args);
      if (field.subscribe) field.subscribe = coded(field.subscribe, field.args);
    }
  }
  return schema;
}

/**
 * Same resolver; a throw or rejection becomes a coded GraphQLError (domain outcome, or masked and logged). Its value
 * passes on as it came, a promise or not (graphql-js's resolver convention): every field with a resolver goes through
 * here, and graphql-js and graphql-jit complete a synchronous field without a promise.
 */
function coded(
  resolve: GraphQLFieldResolver<unknown, GraphqlContext>,
  args: readonly GraphQLArgument[],
): GraphQLFieldResolver<unknown, GraphqlContext> {
  return (source, values, context, info) => {
    try {
      const result = resolve(source, values, context, info);
      return result instanceof Promise
        ? result.catch((error) => Promise.reject(toGraphqlError(error, context, args)))
        : result;
    } catch (error) {
      throw toGraphqlError(error, context, args);
    }
  };
}

// The mock server's GraphQL schema: schema.graphql's own type definitions with @graphql-tools/mock's resolvers, then
// the same guards as the real schema (argument checks of the paired operation, coded errors). Values come from
// openapi.yaml where a GraphQL type has a same-named schema (its example, or openapi-sampler's value), else from
// type mocks (deterministic: the first enum value, lists of two). Resources are keyed by their id (x-resource):
// a root field given one answers that instance, the same within a run; arguments named like fields of the answer,
// and the fields of input arguments, are echoed into it; a root field answering an ID echoes its ID argument; a
// field leading to a resource whose id its parent carries (Loan.member by memberId) answers that one.
// Subscriptions answer a mocked event at every tick of the mock's clock.
import { addMocksToSchema, createMockStore, isRef, type IMocks, type Ref } from "@graphql-tools/mock";
import { makeExecutableSchema } from "@graphql-tools/schema";
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLFieldConfig,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from "graphql";
import type { IResolvers } from "@graphql-tools/utils";
import type { ContractFacts } from "twinspec/internals";
import { idsFor } from "twinspec/internals";
import type { GraphqlContext } from "twinspec/internals";
import { guardResolvers, loadTypeDefs } from "twinspec/internals";

/** Mocked events stream for every subscriber at each tick (src/mock/app.ts publishes them). */
export const TICK = "mockTick";
declare module "twinspec/events" {
  interface EventMap {
    /** the mock server's clock: each tick's number, from 1 (every subscription of the mock answers on it) */
    [TICK]: number;
  }
}

/** Root-field answers kept before the store starts afresh (bounds its memory; a new run of values then begins). */
const STORE_LIMIT = 10_000;

type Resolve = (source: unknown, args: Record<string, unknown>, context: GraphqlContext) => unknown;

export function mockSchema(
  sampleOf: (schemaName: string) => unknown,
  contract: Pick<ContractFacts, "resources" | "graphqlInputs" | "parts" | "webhooks">,
  scalars: IResolvers,
  typeDefs = loadTypeDefs(undefined, contract),
): GraphQLSchema {
  const { resources } = contract;
  const { newId } = idsFor(resources);
  const schema = makeExecutableSchema({ typeDefs, resolvers: [scalars] });
  const keys = new Map(Object.keys(resources).map((tag) => [resources[tag].schema, { tag, field: resources[tag].id }]));
  const mocks: IMocks = { DateTime: () => new Date().toISOString() };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    const key = keys.get(type.name);
    const sampled = sampleOf(type.name);
    if (sampled === undefined && !key) continue;
    // A nullable field the REST sample leaves out is absent there: null here too (no `error` on a job that succeeded).
    const absent =
      sampled === undefined
        ? {}
        : Object.fromEntries(
            Object.values(type.getFields())
              .filter((f) => !isNonNullType(f.type))
              .map((f) => [f.name, null]),
          );
    mocks[type.name] = () => ({
      ...absent,
      ...(sampled === undefined ? {} : shape(type, structuredClone(sampled))),
      // a function: a fresh id each time a new instance is made (a key field the mock set would be refused)
      ...(key ? { [key.field]: () => newId(key.tag) } : {}),
    });
  }
  const store = createMockStore({
    schema,
    mocks,
    mockGenerationBehavior: "deterministic",
    typePolicies: Object.fromEntries([...keys].map(([name, k]) => [name, { keyFieldName: k.field }])),
  });

  let answered = 0;
  const fieldOf = (source: unknown, name: string) =>
    isRef(source) ? store.get(source, name) : (source as Record<string, unknown>)[name];
  /** What a root field answers: the instance its id argument names, or the store's value for these arguments. */
  const rootValue = (
    root: string,
    name: string,
    field: GraphQLFieldConfig<unknown, unknown>,
    args: Record<string, unknown>,
    tick?: number,
  ) => {
    if (++answered > STORE_LIMIT) {
      store.reset();
      answered = 0;
    }
    const type = getNamedType(field.type);
    const key = keys.get(type.name);
    if (isObjectType(type) && key && !isListType(getNullableType(field.type)) && typeof args[key.field] === "string") {
      return withArguments(store.get(type.name, args[key.field] as string) as Ref, type, args);
    }
    const idArgs = Object.entries(field.args ?? {}).filter(([, a]) => getNamedType(a.type).name === "ID");
    if (type.name === "ID" && idArgs.length === 1) return args[idArgs[0][0]];
    // Each tick of a subscription is a new event; the same query arguments, the same answer.
    const value = store.get({
      typeName: root,
      key: "ROOT",
      fieldName: name,
      fieldArgs: tick === undefined ? args : { ...args, tick },
    });
    return isObjectType(type) && isRef(value) ? withArguments(value, type, args) : value;
  };

  const resolvers: Record<string, Record<string, Resolve | { subscribe: Resolve; resolve: Resolve }>> = {};
  const subscription = schema.getSubscriptionType();
  for (const root of [schema.getQueryType(), schema.getMutationType(), subscription]) {
    if (!root) continue;
    resolvers[root.name] = {};
    for (const [name, field] of Object.entries(root.toConfig().fields)) {
      resolvers[root.name][name] =
        root === subscription
          ? {
              subscribe: (_source, _args, { bus, streams }) => streams.listen(bus, TICK, () => true),
              resolve: (tick, args) => rootValue(root.name, name, field, args, tick as number),
            }
          : (_source, args) => rootValue(root.name, name, field, args);
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || resolvers[type.name]) continue;
    for (const [name, field] of Object.entries(type.getFields())) {
      const target = keys.get(getNamedType(field.type).name);
      if (
        !target ||
        isListType(getNullableType(field.type)) ||
        !(target.field in type.getFields()) ||
        target.field === keys.get(type.name)?.field
      )
        continue;
      (resolvers[type.name] ??= {})[name] = (source) => {
        const id = fieldOf(source, target.field);
        return typeof id === "string" ? store.get(getNamedType(field.type).name, id) : null;
      };
    }
  }
  const mocked = addMocksToSchema({ schema, store, resolvers });
  // addMocksToSchema gives every field a `subscribe`; only Subscription's may have one (the auth layer tells them by it).
  for (const type of Object.values(mocked.getTypeMap())) {
    if (!isObjectType(type) || type.name === subscription?.name) continue;
    for (const field of Object.values(type.getFields())) delete field.subscribe;
  }
  return guardResolvers(mocked, contract.graphqlInputs);
}

/** The instance, with what the arguments say about it: arguments named like its fields, and input objects' fields. */
function withArguments(ref: Ref, type: GraphQLObjectType, args: Record<string, unknown>): Ref {
  const fields = type.getFields();
  const given: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name in fields) given[name] = value;
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) if (k in fields && v !== null && v !== undefined) given[k] = v;
    }
  }
  return { ...ref, ...given };
}

/** The part of a REST sample that a GraphQL type has: its fields, recursively; what it lacks is left to the mocks. */
function shape(type: GraphQLObjectType, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof value !== "object" || value === null) return out;
  for (const [name, field] of Object.entries(type.getFields())) {
    const v = (value as Record<string, unknown>)[name];
    if (v !== undefined && v !== null) {
      const shaped = shapeValue(field.type, v);
      if (shaped !== undefined) out[name] = shaped;
    }
  }
  return out;
}

function shapeValue(type: GraphQLOutputType, value: unknown): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return Array.isArray(value) ? value.map((v) => shapeValue(nullable.ofType, v)) : undefined;
  if (isObjectType(nullable)) return shape(nullable, value);
  if (isEnumType(nullable)) return nullable.getValue(String(value)) ? value : undefined;
  return isScalarType(nullable) ? value : undefined;
}

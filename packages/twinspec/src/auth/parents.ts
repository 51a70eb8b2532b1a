// A resource owned through a parent (x-resource owner: { through, by }) has its parent's 404 and 410 answered here,
// before its handler or resolver runs, for REST and GraphQL alike: the parent's own lookup (its service's get)
// decides, up the whole chain, so no child re-codes its parent's rules. generated/contract.ts says, per operation
// and root field, what must be live (restParents, graphqlParents); generated/wiring.ts parentCheck looks it up.
import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import type { ParentCheck, ParentRule } from "../definition.js";

type Handler = (req: { params?: Record<string, unknown> }, ctx: unknown) => Promise<unknown>;

/** The same handlers, each of an operation with a parent rule first checking that parent (its errors are the domain's). */
export function withParentsRest<H extends object>(
  handlers: H,
  rules: Readonly<Record<string, ParentRule>>,
  check: ParentCheck,
): H {
  const wrapped: Record<string, unknown> = { ...(handlers as Record<string, unknown>) };
  for (const [operationId, rule] of Object.entries(rules)) {
    const handler = wrapped[operationId] as Handler | undefined;
    if (typeof handler !== "function") continue;
    wrapped[operationId] = async (req: Parameters<Handler>[0], ctx: unknown) => {
      const id = req.params?.[rule.from];
      if (typeof id === "string") await check(rule, id);
      return handler(req, ctx);
    };
  }
  return wrapped as H;
}

/** The same schema, each root field with a parent rule first checking that parent (a subscription: before it starts). */
export function withParentsGraphql(
  schema: GraphQLSchema,
  rules: Readonly<Record<string, ParentRule>>,
  check: ParentCheck,
): GraphQLSchema {
  if (Object.keys(rules).length === 0) return schema;
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const rule = rules[`${typeName}.${fieldName}`];
      if (!rule) return field;
      const checked = async (args: Record<string, unknown>) => {
        const id = args[rule.from];
        if (typeof id === "string") await check(rule, id);
      };
      if (field.subscribe) {
        const subscribe = field.subscribe;
        return {
          ...field,
          subscribe: async (source, args, context, info) => (
            await checked(args), subscribe(source, args, context, info)
          ),
        };
      }
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: async (source, args, context, info) => (await checked(args), resolve(source, args, context, info)),
      };
    },
  });
}

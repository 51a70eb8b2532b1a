// GraphQL authorization from schema.graphql's @auth(scopes: […]) directives, enforced centrally by wrapping
// the resolvers of every field that carries one (or whose type does). A field the caller may not see resolves
// to an error (UNAUTHENTICATED / FORBIDDEN) and null, leaving the rest of `data` intact. Root fields then apply
// the ownership rule to the identifiers in their arguments, as REST does to its path.
import { getDirective, MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, GraphQLError, type GraphQLFieldConfig, type GraphQLSchema } from "graphql";
import type { Ownership } from "../definition.js";
import { ownership, ownerRefusal, type OwnerLookup, type Refusal } from "./ownership.js";
import { missingScopes, type Principal } from "./principal.js";

const unauthenticatedError = (message = "this field needs a bearer token (Authorization: Bearer <token>)") =>
  new GraphQLError(message, { extensions: { code: "UNAUTHENTICATED" } });
const forbidden = (message: string) => new GraphQLError(message, { extensions: { code: "FORBIDDEN" } });

/** The scopes a field needs: its own @auth, else its parent type's @auth; undefined = public. */
function requiredScopes(
  schema: GraphQLSchema,
  field: GraphQLFieldConfig<unknown, unknown>,
  typeName: string,
): string[] | undefined {
  const own = getDirective(schema, field, "auth")?.[0]?.scopes as string[] | undefined;
  const type = schema.getType(typeName);
  const inherited = type ? (getDirective(schema, type, "auth")?.[0]?.scopes as string[] | undefined) : undefined;
  return own ?? inherited;
}

/** Throws the error a caller without the scopes (or without any token) gets. */
function checkScopes(principal: Principal | null, scopes: string[], field: string): void {
  if (!principal) throw unauthenticatedError(`${field} needs a bearer token with scope(s) ${scopes.join(", ")}`);
  const missing = missingScopes(principal, scopes);
  if (missing.length > 0) throw forbidden(`${field} needs the scope(s) ${missing.join(", ")}`);
}

/** Why a root field may not run for the caller, from the ownership rule (ownership.ts), as its error. */
const refusedError = (refused: Refusal, field: string) =>
  refused === "collection"
    ? forbidden(`${field} covers what every owner holds; only an admin token may use it`)
    : forbidden(`${field}: what it names is not owned by this token's subject`);

export function withAuth(
  schema: GraphQLSchema,
  owners: OwnerLookup,
  graphqlOwnership: Readonly<Record<string, Ownership>>,
): GraphQLSchema {
  const roots = new Set([
    schema.getQueryType()?.name,
    schema.getMutationType()?.name,
    schema.getSubscriptionType()?.name,
  ]);
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const scopes = requiredScopes(schema, field, typeName);
      if (!scopes) return field;
      const name = `${typeName}.${fieldName}`;
      const isRoot = roots.has(typeName);
      const resolve = field.resolve ?? defaultFieldResolver;
      if (field.subscribe) {
        // A subscription is authorized once, when it starts, and ends when the caller's token expires.
        const subscribe = field.subscribe;
        return {
          ...field,
          subscribe: async (source, args, context: { principal: Principal | null }, info) => {
            checkScopes(context.principal, scopes, name);
            const rule = ownership(context.principal!, graphqlOwnership[name], args);
            const refused = typeof rule === "object" ? await ownerRefusal(context.principal!, rule, owners) : rule;
            if (refused) throw refusedError(refused, name);
            const stream = await subscribe(source, args, context, info);
            return isAsyncIterable(stream) ? untilExpiry(stream, context.principal!.expiresAt * 1000) : stream;
          },
        };
      }
      const rule = isRoot ? graphqlOwnership[name] : undefined;
      // The scope check and the rule are synchronous, as graphql-js's resolvers may be; only an owner lookup
      // (ownerRefusal) makes a root field wait, and every other field's value stays as its resolver gives it.
      const guarded: GraphQLFieldConfig<unknown, { principal: Principal | null }> =
        rule && rule.kind !== "none"
          ? {
              ...field,
              resolve: (source, args, context, info) => {
                checkScopes(context.principal, scopes, name);
                const decided = ownership(context.principal!, rule, args);
                if (decided === undefined) return resolve(source, args, context, info);
                if (typeof decided === "string") throw refusedError(decided, name);
                return ownerRefusal(context.principal!, decided, owners).then((refused) => {
                  if (refused) throw refusedError(refused, name);
                  return resolve(source, args, context, info);
                });
              },
            }
          : {
              ...field,
              resolve: (source, args, context, info) => {
                checkScopes(context.principal, scopes, name);
                return resolve(source, args, context, info);
              },
            };
      return guarded;
    },
  });
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** The same stream, ended (and its source returned) at `deadline` ms since epoch. */
function untilExpiry<T>(
  stream: AsyncIterable<T>,
  deadline: number,
): AsyncIterableIterator<T> & { readonly lastEventId: string | undefined } {
  const source = stream[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<IteratorResult<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: true, value: undefined }), Math.max(0, deadline - Date.now()));
  });
  const finish = async () => {
    clearTimeout(timer);
    await source.return?.();
    return { done: true as const, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    /** the event id of the stream it wraps (graphql/streams.ts), which each payload carries */
    get lastEventId(): string | undefined {
      return (source as { lastEventId?: string }).lastEventId;
    },
    async next() {
      const result = await Promise.race([source.next(), expired]);
      if (result.done) await finish();
      return result;
    },
    return: finish,
    async throw(error) {
      await finish();
      throw error;
    },
  };
}

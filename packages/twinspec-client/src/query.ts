// TanStack Query options for a generated SDK, for @tanstack/query-core and its React, Vue, Svelte and Solid adapters
// alike (plain option objects; no import of TanStack here). Query keys start with the resource an operation reads,
// and every query carries in `meta.twinspec.reads` all the resources its data came from: a successful write, over
// REST or GraphQL, invalidates the queries of the resources it writes, whichever transport read them.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { FOLLOW, nextUrl } from "./rest/client.js";
import { RestError } from "./rest/error.js";
import type {
  ArgsOf,
  BodyOf,
  CallOptions,
  ItemOf,
  OperationTable,
  OutcomeBase,
  PagedIds,
  RestClient,
} from "./rest/types.js";

export interface TwinspecMeta {
  twinspec: { reads?: readonly string[]; writes?: readonly string[] };
}

/** What these options need of a QueryClient (TanStack passes it to mutation callbacks as `context.client`). */
export interface QueryClientLike {
  invalidateQueries(filters: {
    predicate: (query: { queryKey: readonly unknown[]; meta?: Record<string, unknown> }) => boolean;
  }): Promise<void>;
}

/** The queries whose data came from any of `resources`. */
export const readsAny = (resources: readonly string[]) => (query: { meta?: Record<string, unknown> }) =>
  ((query.meta as Partial<TwinspecMeta> | undefined)?.twinspec?.reads ?? []).some((r) => resources.includes(r));

/** Invalidates every query that read one of `resources`. */
export const invalidate = (client: QueryClientLike, resources: readonly string[]) =>
  client.invalidateQueries({ predicate: readsAny(resources) });

type Success<Op> = BodyOf<Op, 200 | 201 | 202 | 203 | 204 | 206>;
type ArgList<Op> = {} extends ArgsOf<Op> ? [args?: ArgsOf<Op>] : [args: ArgsOf<Op>];

/** The body of a 2xx outcome; any other status throws a RestError carrying the outcome (TanStack's error). */
export function bodyOrThrow<B>(outcome: OutcomeBase): B {
  if (outcome.status >= 200 && outcome.status < 300) return outcome.body as B;
  throw new RestError(outcome);
}

export interface Page<Item, Body> {
  items: Item[];
  body: Body;
  /** the next page's URL (its Link), the next pageParam */
  next?: string;
}

export function restQueries<O, T extends OperationTable<O>>(api: RestClient<O, T>, table: T) {
  const call = (id: keyof O, args: unknown, options?: CallOptions) =>
    (api[id] as (a: unknown, o?: CallOptions) => Promise<OutcomeBase>)(args, options);
  const key = (id: keyof O & string) => table[id].reads?.[0] ?? table[id].writes?.[0] ?? id;
  return {
    queryOptions<K extends keyof O & string>(operationId: K, ...[args]: ArgList<O[K]>) {
      return {
        queryKey: [key(operationId), operationId, args ?? {}] as const,
        queryFn: async ({ signal }: { signal?: AbortSignal }) =>
          bodyOrThrow<Success<O[K]>>(await call(operationId, args, { signal })),
        meta: { twinspec: { reads: table[operationId].reads ?? [] } } satisfies TwinspecMeta,
      };
    },
    /** Pages that follow the Link header: `data.pages.flatMap((p) => p.items)`. */
    infiniteQueryOptions<K extends PagedIds<T> & keyof O & string>(operationId: K, ...[args]: ArgList<O[K]>) {
      type Item = ItemOf<O[K], T[K] extends { items: infer I } ? I : never>;
      return {
        queryKey: [key(operationId), operationId, args ?? {}, "pages"] as const,
        initialPageParam: undefined as string | undefined,
        queryFn: async ({
          pageParam,
          signal,
        }: {
          pageParam: string | undefined;
          signal?: AbortSignal;
        }): Promise<Page<Item, Success<O[K]>>> => {
          const follow = (
            api as unknown as Record<symbol, (id: K, href: string, o?: CallOptions) => Promise<OutcomeBase>>
          )[FOLLOW];
          const page =
            pageParam === undefined
              ? await call(operationId, args, { signal })
              : await follow(operationId, pageParam, { signal });
          const body = bodyOrThrow<Success<O[K]>>(page);
          const at = table[operationId].items ?? "";
          const items = (at ? (body as unknown as Record<string, unknown>)[at] : body) as Item[];
          return { items, body, next: nextUrl(page) };
        },
        getNextPageParam: (last: { next?: string }) => last.next,
        meta: { twinspec: { reads: table[operationId].reads ?? [] } } satisfies TwinspecMeta,
      };
    },
    /** On success, invalidates the queries of every resource the operation writes, read over REST or GraphQL. */
    mutationOptions<K extends keyof O & string>(operationId: K) {
      const writes = table[operationId].writes ?? [];
      return {
        mutationKey: [key(operationId), operationId] as const,
        mutationFn: async (...[args]: ArgList<O[K]>) => bodyOrThrow<Success<O[K]>>(await call(operationId, args)),
        onSuccess: (_data: unknown, _variables: unknown, _result: unknown, context: { client: QueryClientLike }) =>
          invalidate(context.client, writes),
        meta: { twinspec: { writes } } satisfies TwinspecMeta,
      };
    },
  };
}

/** What a GraphQL client offers these options (twinspec-client/graphql's GraphqlClient). */
export interface GraphqlDataClient {
  data<R, V>(document: TypedDocumentNode<R, V>, variables?: V): Promise<R>;
}

/** Per operation name: the resources a document reads and, for a mutation, writes (generated from the schema). */
export type DocumentResources = Readonly<Record<string, { reads: readonly string[]; writes?: readonly string[] }>>;

const nameOf = (document: TypedDocumentNode<unknown, never>) => {
  const operation = document.definitions.find((d) => d.kind === "OperationDefinition");
  return operation && "name" in operation ? (operation.name?.value ?? "") : "";
};

export function graphqlQueries(client: GraphqlDataClient, resources: DocumentResources) {
  const of = (document: TypedDocumentNode<any, any>) => resources[nameOf(document)] ?? { reads: [] };
  return {
    queryOptions<R, V>(
      document: TypedDocumentNode<R, V>,
      ...[variables]: {} extends V ? [variables?: V] : [variables: V]
    ) {
      const { reads } = of(document);
      return {
        queryKey: [reads[0] ?? "graphql", nameOf(document), variables ?? {}] as const,
        queryFn: () => client.data(document, variables),
        meta: { twinspec: { reads } } satisfies TwinspecMeta,
      };
    },
    /**
     * Pages of a list field: the schema says nothing of how its pages chain, so `next` gives the variables of the page
     * after `last` (e.g. `{ after: last.books.at(-1)?.bookId }`), or undefined on the last page.
     */
    infiniteQueryOptions<R, V>(
      document: TypedDocumentNode<R, V>,
      variables: NoInfer<V>,
      next: (last: R) => Partial<NoInfer<V>> | undefined,
    ) {
      const { reads } = of(document);
      return {
        queryKey: [reads[0] ?? "graphql", nameOf(document), variables ?? {}, "pages"] as const,
        initialPageParam: {} as Partial<V>,
        queryFn: ({ pageParam }: { pageParam: Partial<V> }) => client.data(document, { ...variables, ...pageParam }),
        getNextPageParam: next,
        meta: { twinspec: { reads } } satisfies TwinspecMeta,
      };
    },
    mutationOptions<R, V>(document: TypedDocumentNode<R, V>) {
      const { writes = [] } = of(document);
      return {
        mutationKey: [writes[0] ?? "graphql", nameOf(document)] as const,
        mutationFn: (variables: V) => client.data(document, variables),
        onSuccess: (_data: unknown, _variables: unknown, _result: unknown, context: { client: QueryClientLike }) =>
          invalidate(context.client, writes),
        meta: { twinspec: { writes } } satisfies TwinspecMeta,
      };
    },
  };
}

// Emits the entry of an application's client package (client/generated/index.ts) and, when it has GraphQL documents,
// documents.ts: which resources each document reads and writes, from the schema's types paired with x-resource tags
// and each mutation field's pairing. That map is what lets a write over one transport invalidate the queries of both.
import {
  buildSchema,
  isCompositeType,
  Kind,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  getNamedType,
  type GraphQLSchema,
} from "graphql";
import { GRAPHQL_CODES } from "twinspec/internals";
import type { Contract } from "../model/contract.js";

export interface DocumentResources {
  reads: string[];
  /** a mutation's root fields: the REST operation each is paired with (its `writes` in rest.ts), or its own tag */
  writes?: { operationId?: string; tag: string }[];
}

/** Per operation name: the resources its selections read, and what a mutation's root fields write. */
export function documentResources(
  sdl: string | GraphQLSchema,
  documents: string[],
  contract: Contract,
): Map<string, DocumentResources> {
  const schema = typeof sdl === "string" ? buildSchema(sdl) : sdl;
  const mutation = schema.getMutationType()?.name ?? "Mutation";
  const byField = new Map(contract.fields.filter((f) => f.root).map((f) => [f.coordinate, f]));
  const out = new Map<string, DocumentResources>();
  for (const text of documents) {
    for (const definition of parse(text).definitions) {
      if (definition.kind !== "OperationDefinition" || !definition.name) continue;
      const reads = new Set<string>();
      const info = new TypeInfo(schema);
      visit(
        { kind: Kind.DOCUMENT, definitions: [definition] },
        visitWithTypeInfo(info, {
          Field() {
            const type = info.getType();
            const named = type ? getNamedType(type) : undefined;
            const tag = named && isCompositeType(named) ? contract.models.get(named.name) : undefined;
            if (tag) reads.add(tag);
          },
        }),
      );
      const entry: DocumentResources = { reads: [...reads] };
      if (definition.operation === "mutation") {
        entry.writes = definition.selectionSet.selections.flatMap((selection) => {
          const field = selection.kind === "Field" ? byField.get(`${mutation}.${selection.name.value}`) : undefined;
          return field ? [{ operationId: field.operationId, tag: field.tag }] : [];
        });
      }
      out.set(definition.name.value, entry);
    }
  }
  return out;
}

export function documentsModule(resources: Map<string, DocumentResources>): string {
  const writes = (w: NonNullable<DocumentResources["writes"]>) =>
    `[${[...new Set(w.map((x) => (x.operationId ? `...operations.${x.operationId}.writes` : JSON.stringify(x.tag))))].join(", ")}]`;
  const lines = [...resources].map(
    ([name, r]) =>
      `  ${name}: { reads: ${JSON.stringify(r.reads)}${r.writes ? `, writes: ${writes(r.writes)}` : ""} },`,
  );
  return `import type { DocumentResources } from "twinspec-client/query";
import { operations } from "./rest.js";

/**
 * Per GraphQL operation: the resources it reads and, for a mutation, writes: those of the REST operation each root
 * field is paired with, so a write invalidates the same queries over either transport (TanStack Query).
 */
export const documents = {${lines.map((line) => `\n${line}`).join("")}
} satisfies DocumentResources;
`;
}

/** client/generated/index.ts: the package's public API. */
export function clientIndex({ graphql, webhooks = false }: { graphql: boolean; webhooks?: boolean }): string {
  const hooks = webhooks
    ? `export { parseWebhook, type WebhookBodies, type WebhookEvent } from "./webhooks.js";
export { WebhookRefused, type SeenIds } from "twinspec-client";
`
    : "";
  const rest = `${hooks}export { createRestClient, operations, type Operations, type RestApi } from "./rest.js";
export { nextUrl, RestError, type CallOptions, type OutcomeOf, type RestClientOptions, type RetryOptions, type WaitOptions } from "twinspec-client";
import { restQueries } from "twinspec-client/query";
import { operations, type Operations, type RestApi } from "./rest.js";

/** TanStack Query options for the REST operations: \`queryOptions(id, args)\`, \`infiniteQueryOptions\`, \`mutationOptions\`. */
export const createRestQueries = (api: RestApi) => restQueries<Operations, typeof operations>(api, operations);
`;
  if (!graphql) return rest;
  return `${rest}
export * from "./graphql/graphql.js";
export { documents } from "./documents.js";
export { GraphqlRequestError, type GraphqlClientOptions, type GraphqlResult } from "twinspec-client/graphql";
import { createGraphqlClient as graphqlClient, type GraphqlClient, type GraphqlClientOptions } from "twinspec-client/graphql";
import { graphqlQueries } from "twinspec-client/query";
import { documents } from "./documents.js";

/** Every \`extensions.code\` the server answers over GraphQL. */
export type ErrorCode = ${GRAPHQL_CODES.map((c) => JSON.stringify(c)).join(" | ")};

export type GraphqlApi = GraphqlClient<ErrorCode>;

/** The typed GraphQL client: queries and mutations over HTTP, subscriptions over WebSocket or SSE. */
export const createGraphqlClient = (options: GraphqlClientOptions): GraphqlApi => graphqlClient<ErrorCode>(options);

/** TanStack Query options for the GraphQL documents; a mutation invalidates what REST reads of its resources too. */
export const createGraphqlQueries = (client: GraphqlApi) => graphqlQueries(client, documents);
`;
}

// What an application built with Twinspec hands the framework: the facts `npm run generate` read from its two specs
// (generated/contract.ts, generated/rest.ts, generated/persisted-documents.ts) and its own code, wired by
// generated/wiring.ts (`definition`). The framework reads every resource, scope, owner and budget from here, never
// from a list of its own.
import type { IResolvers } from "@graphql-tools/utils";
import type { ServiceDeps } from "./domain/deps.js";
import type { MountOptions, OperationSpec, RestMiddleware, Validator } from "./runtime/index.js";

/** A resource (an OpenAPI tag with x-resource): schema, identifying property, id prefix, owner property, URL template. */
export interface ResourceInfo {
  /** the component schema (and GraphQL type) of one such resource */
  schema: string;
  /** the property, path parameter and GraphQL argument that identify one */
  id: string;
  idPrefix: string;
  /** "self": an instance is its own owner (a token whose sub is its id acts for it); "none": nobody owns it; else the property naming its owner */
  owner: string;
  /** owned through a parent (x-resource owner: { through, by }): the parent's tag; `owner` is then the property naming the parent */
  through?: string;
  /** path template of one resource (its GET), for Location headers */
  path: string;
}

/** What must be live before an operation or root field of a child resource runs (generated/contract.ts restParents). */
export interface ParentRule {
  resource: string;
  from: string;
  /** "itself": the instance `from` names (a child collection's parent); "parents": that instance's parents */
  of: "itself" | "parents";
}

/** Rejects with the parent's NotFoundError / GoneError when what `id` names is under a parent that cannot be acted on. */
export type ParentCheck = (rule: ParentRule, id: string) => Promise<void>;

/** Whose data a request acts on: an instance named by a path parameter or argument, a whole owned collection, or nobody's. */
export type Ownership = { kind: "instance"; resource: string; from: string } | { kind: "collection"; resource: string } | { kind: "none" };

/**
 * The rules a root field's arguments share with its paired operation: arguments named like its path parameters,
 * and its body (one input object argument, or arguments named like the body's properties).
 */
export interface InputRules {
  operationId: string;
  path?: { args: string[]; validate: Validator };
  body?: { validate: Validator } & ({ arg: string } | { args: string[] });
}

export interface Budget {
  limit: number;
  window: number;
}

/** What the two specs state together (generated/contract.ts). */
export interface ContractFacts {
  scopes: Readonly<Record<string, string>>;
  resources: Readonly<Record<string, ResourceInfo>>;
  restOwnership: Readonly<Record<string, Ownership>>;
  graphqlOwnership: Readonly<Record<string, Ownership>>;
  restParents: Readonly<Record<string, ParentRule>>;
  graphqlParents: Readonly<Record<string, ParentRule>>;
  /**
   * Relations (generated resolvers over batch loaders): "Book.reviews" → { kind: "list", resource: "reviews", by: the
   * parent's id property }; "Review.author" → { kind: "one", resource: "authors", by: the property naming it }
   */
  relations: Readonly<Record<string, { kind: "list" | "one"; resource: string; by: string; nullable?: boolean }>>;
  pairs: Readonly<Record<string, string>>;
  graphqlInputs: Readonly<Record<string, InputRules>>;
  rateLimits: {
    readonly budgets: Readonly<Record<string, Budget>>;
    readonly rest: Readonly<Record<string, string>>;
    readonly graphql: Readonly<Partial<Record<"query" | "mutation" | "subscription", string>>>;
  };
}

/** Who owns an instance of a resource (undefined: no such instance; null: nobody owns it). */
export type OwnerLookup = (resource: string, id: string) => Promise<string | undefined | null>;

export interface AppDefinition<Services = any> {
  contract: ContractFacts;
  operationSpecs: readonly OperationSpec[];
  restRoutes(handlers: any, options?: MountOptions): RestMiddleware;
  /** every operation's handler (src/rest/<tag>.ts) */
  restHandlers: object;
  /** every resolver (src/graphql/<tag>.ts and src/graphql/scalars.ts) */
  resolvers: IResolvers[];
  /** the custom scalars of schema.graphql */
  scalars: IResolvers;
  createServices(deps: Omit<ServiceDeps, "services">): Services;
  ownerLookup(services: Services): OwnerLookup;
  /** the parents' 404 / 410 for the operations and root fields of resources owned through a parent */
  parentCheck(services: Services): ParentCheck;
  /** per-operation DataLoaders for GraphQL (src/graphql/loaders.ts) */
  createLoaders(services: Services): object;
  /** the client preset's persisted documents: id → text */
  persistedDocuments: Readonly<Record<string, string>>;
}

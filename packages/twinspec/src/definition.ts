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
  /** the prefix of its new ids (`newId("books")` → "bok_…"), x-resource's idPrefix */
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
  /** the tag of the resource whose instance the parameter or argument names (the parent itself, or the child) */
  resource: string;
  /** the path parameter (REST) or argument (GraphQL) holding that instance's id */
  from: string;
  /** "itself": the instance `from` names (a child collection's parent); "parents": that instance's parents */
  of: "itself" | "parents";
}

/**
 * Rejects with the parent's NotFoundError / GoneError when what `id` names is under a parent that cannot be acted on.
 *
 * @param rule - the operation's or root field's rule (`ContractFacts.restParents` / `graphqlParents`)
 * @param id - the id the request names, read from the parameter or argument `rule.from`
 */
export type ParentCheck = (rule: ParentRule, id: string) => Promise<void>;

/**
 * Whose data a request acts on: an instance named by a path parameter or argument (`resource`'s tag, the parameter
 * `from`: its owner is looked up), a whole owned collection of `resource` (a caller sees its own; admin all), or
 * nobody's.
 */
export type Ownership =
  | {
      /** an instance named by the request */
      kind: "instance";
      /** the tag of the resource the instance is of */
      resource: string;
      /** the path parameter (REST) or argument (GraphQL) that holds its id */
      from: string;
    }
  | {
      /** a whole owned collection */
      kind: "collection";
      /** the tag of the resource listed or created */
      resource: string;
    }
  | {
      /** nobody's: any caller with the scopes may call */
      kind: "none";
    };

/**
 * The rules a root field's arguments share with its paired operation: arguments named like its path parameters,
 * and its body (one input object argument, or arguments named like the body's properties).
 */
export interface InputRules {
  /** the operation the root field pairs with (x-graphql) */
  operationId: string;
  /** the arguments named like its path parameters, and the compiled validator of its path parameters */
  path?: { args: string[]; validate: Validator };
  /** the argument holding its body (`arg`), or the arguments named like the body's properties (`args`), and the body's compiled validator */
  body?: { validate: Validator } & ({ arg: string } | { args: string[] });
}

/** One rate-limit budget (x-rate-limit, @rateLimit): what one caller may spend per window. */
export interface Budget {
  /** what one caller may spend in a window: requests on REST, query cost on GraphQL */
  limit: number;
  /** the window's length, in seconds */
  window: number;
}

/** What the two specs state together (generated/contract.ts). */
export interface ContractFacts {
  /** every scope an operation or field may ask for (x-scopes of the bearer scheme) → its description */
  scopes: Readonly<Record<string, string>>;
  /** every resource (a tag with x-resource), by tag */
  resources: Readonly<Record<string, ResourceInfo>>;
  /** whose data each operation acts on, by operationId */
  restOwnership: Readonly<Record<string, Ownership>>;
  /** whose data each root field acts on, by field ("Query.book") */
  graphqlOwnership: Readonly<Record<string, Ownership>>;
  /** what must be live before an operation of a resource owned through a parent runs, by operationId */
  restParents: Readonly<Record<string, ParentRule>>;
  /** the same for root fields, by field ("Query.review") */
  graphqlParents: Readonly<Record<string, ParentRule>>;
  /**
   * Relations (generated resolvers over batch loaders): "Book.reviews" → { kind: "list", resource: "reviews", by: the
   * parent's id property }; "Review.author" → { kind: "one", resource: "authors", by: the property naming it }
   */
  relations: Readonly<Record<string, { kind: "list" | "one"; resource: string; by: string; nullable?: boolean }>>;
  /** operationId → the GraphQL field it pairs with (x-graphql) */
  pairs: Readonly<Record<string, string>>;
  /**
   * The webhooks (openapi.yaml's webhooks:), by event type: the subscription field carrying the same event, whose event
   * it is (the owned resource and the payload's property naming its instance; "none": nobody's), the scopes to
   * register for it. Absent when the application declares none.
   */
  webhooks?: Readonly<
    Record<
      string,
      { field: string; owner: { readonly resource: string; readonly by: string } | "none"; scopes: readonly string[] }
    >
  >;
  /** the rules a root field's arguments share with its paired operation, by field ("Mutation.createBook") */
  graphqlInputs: Readonly<Record<string, InputRules>>;
  /**
   * The Twinspec parts openapi.yaml includes (x-twinspec-parts: "webhook-endpoints"): their operations and root
   * fields are served by the framework, and /openapi.json and the GraphQL schema carry them. Absent: none.
   */
  parts?: readonly string[];
  /** the rate limits (x-rate-limit, @rateLimit) */
  rateLimits: {
    /** every budget by name ("default", "tag:books", "op:renewLoan", "graphql", "graphql:Mutation") */
    readonly budgets: Readonly<Record<string, Budget>>;
    /** operationId → the name of the budget it spends */
    readonly rest: Readonly<Record<string, string>>;
    /** GraphQL operation type → the name of the budget it spends (by query cost) */
    readonly graphql: Readonly<Partial<Record<"query" | "mutation" | "subscription", string>>>;
  };
}

/**
 * Who owns an instance of a resource (undefined: no such instance; null: nobody owns it).
 *
 * @param resource - the resource's tag
 * @param id - the instance's id
 */
export type OwnerLookup = (resource: string, id: string) => Promise<string | undefined | null>;

/**
 * The application, as the framework reads it: generated/wiring.ts's `definition`, handed to `serve`, `buildApp` and
 * `serveMock`. `Services` is the application's services (generated/wiring.ts's `Services`).
 */
export interface AppDefinition<Services = any> {
  /** what the two specs state together (generated/contract.ts) */
  contract: ContractFacts;
  /** every operation of openapi.yaml, as the REST runtime reads it (generated/rest.ts) */
  operationSpecs: readonly OperationSpec[];
  /**
   * The REST middleware of every operation (generated/rest.ts's `restRoutes`).
   *
   * @param handlers - the handlers by operationId (an operation without one answers 501)
   * @param options - the runtime's options (authorizer, error mapping, limits); default none
   */
  restRoutes(handlers: any, options?: MountOptions): RestMiddleware;
  /** every operation's handler (src/rest/<tag>.ts) */
  restHandlers: object;
  /** every resolver (src/graphql/<tag>.ts and src/graphql/scalars.ts) */
  resolvers: IResolvers[];
  /** the custom scalars of schema.graphql */
  scalars: IResolvers;
  /**
   * Makes the application's services (each domain module's `createService`), once per application.
   *
   * @param deps - what the services are made with: the database, the event bus, the job queue, the logger
   */
  createServices(deps: Omit<ServiceDeps, "services">): Services;
  /**
   * Who owns an instance of each resource, read through the services (`ownerOf`, `parentOf`).
   *
   * @param services - what `createServices` made
   */
  ownerLookup(services: Services): OwnerLookup;
  /**
   * The parents' 404 / 410 for the operations and root fields of resources owned through a parent.
   *
   * @param services - what `createServices` made
   */
  parentCheck(services: Services): ParentCheck;
  /**
   * Per-operation DataLoaders for GraphQL (src/graphql/loaders.ts), made for each GraphQL operation.
   *
   * @param services - what `createServices` made
   */
  createLoaders(services: Services): object;
  /** the client preset's persisted documents: id → text */
  persistedDocuments: Readonly<Record<string, string>>;
}

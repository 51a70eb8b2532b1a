// The `twinspec` package's public API: what an application built with Twinspec imports (README, "The public API").
// Generated code imports "twinspec/runtime"; a domain module adds its tables to "twinspec/schema" and its events to
// "twinspec/events" (declaration merging); the mock server is "twinspec-dev/mock", so that a production server never
// loads it (nor the spec loader it reads the specs with). Nothing else of the package is an application's to import.

// The application, served: what generated/wiring.ts hands the framework, and the ways to run it.
export type {
  AppDefinition,
  ContractFacts,
  InputRules,
  Ownership,
  OwnerLookup,
  ParentCheck,
  ParentRule,
  ResourceInfo,
  Budget,
} from "./definition.js";
export { buildApp, type App, type AppDeps } from "./app.js";
export { serve, type ServeOptions } from "./server/serve.js";
export { configFromEnv, type Config, type GraphqlConfig } from "./config.js";
export { createHttpServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from "./server/factory.js";
export { createMetrics, type Metrics } from "./http/metrics.js";
export { drainable } from "./server/shutdown.js";
export { createLogger, createServerLogger } from "./logger.js";

// What handlers, resolvers and domain services are written with.
export type { ServiceDeps } from "./domain/deps.js";
export type { RestContext } from "./rest/context.js";
export type { GraphqlContext } from "./graphql/context.js";
export {
  ConflictError,
  DomainError,
  EventsExpiredError,
  GoneError,
  InvalidInputError,
  MovedError,
  NotFoundError,
  NotImplementedError,
  PreconditionError,
  UnprocessableError,
  type ErrorKind,
  type InputError,
} from "./domain/errors.js";
export { PROBLEMS, type ProblemEntry } from "./runtime/problems.js";
export { encodeCursor, keysetPager, projectedPager, type Page, type PageRequest } from "./domain/pagination.js";
export { holds, type Preconditions } from "./domain/preconditions.js";
export { projections, type FieldReaders, type Projection } from "./domain/projection.js";
export { groupBy, liveRowsByParent } from "./domain/batch.js";
export { idsFor, newIdWithPrefix, now } from "./runtime/ids.js";
export { etagOf, prefersMinimal, resourceHeaders } from "./http/conditional.js";
export { pageLink } from "./rest/pagination.js";
export { selectedFields, selectsOwnType } from "./graphql/selection.js";
export { relationLoader } from "./graphql/relations.js";
export { loadOptional, loadRequired, lookupLoader, primeLookup } from "./graphql/lookups.js";
export { DateTime } from "./graphql/scalars.js";

// The store: its database, transactions, compiled statements, migrations' column types, the job queue, the event bus.
export { openStore, isPostgresUrl, DEFAULT_DATABASE_URL, type Store, type StoreOptions } from "./store/database.js";
export type { Database } from "./store/schema.js";
export { lockRows, transaction } from "./store/transactions.js";
export {
  prepared,
  preparedFirst,
  preparedIn,
  preparedInRaw,
  projectedByKey,
  type AmongIds,
  type ValuesProjection,
} from "./store/prepared.js";
export { bytes, text } from "./store/columns.js";
export { isPostgres, isUniqueViolation } from "./store/dialect.js";
export { JobFailed, JobQueue, type JobHandler, type QueueOptions } from "./store/job-queue.js";
export { InProcessBus, type EventBus, type EventListener, type EventMap, type LoggedEvent } from "./store/events.js";
export { DurableBus, type DurableBusOptions } from "./store/durable-bus.js";

// Tokens: who a request acts for.
export { signToken, TokenVerifier, type TokenClaims, type VerifierOptions } from "./auth/tokens.js";
export { actsFor, isAdmin, type Principal } from "./auth/principal.js";

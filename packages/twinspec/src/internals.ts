// "twinspec/internals": what the development package (twinspec-dev: the generator and CLI, the test kit, the mock
// server) builds on, beyond the public API ("twinspec", "twinspec/runtime"): the media-type and problem helpers the
// generator shares with the REST runtime, the server pieces the test kit and the mock server assemble, the error
// table the generated clients name. Versioned with twinspec-dev (they are released together); not for applications,
// which import "twinspec" and the code `generate` writes.
export { type App, type AppDeps, buildApp } from "./app.js";
export { withAuth } from "./auth/graphql.js";
export { allScopes } from "./auth/secret.js";
export { TokenVerifier, type VerifierOptions, parseTtl, signToken } from "./auth/tokens.js";
export { type GraphqlConfig } from "./config.js";
export type {
  AppDefinition,
  Budget,
  ContractFacts,
  InputRules,
  OwnerLookup,
  Ownership,
  ParentCheck,
  ParentRule,
  ResourceInfo,
} from "./definition.js";
export { ERRORS, GRAPHQL_CODES } from "./error-table.js";
export { type GraphqlContext } from "./graphql/context.js";
export { createGraphqlRuntime } from "./graphql/runtime.js";
export { guardResolvers, loadTypeDefs } from "./graphql/schema.js";
export { fingerprint } from "./http/idempotency.js";
export { type Metrics, createMetrics } from "./http/metrics.js";
export { createLogger, createServerLogger } from "./logger.js";
export { projectFile } from "./paths.js";
export {
  KNOWN_PARTS,
  PART_KEY,
  PARTS_KEY,
  PartError,
  partsOf,
  partTypeDefs,
  withPartTypeDefs,
} from "./parts/files.js";
export { includeParts } from "./parts/include.js";
export { isPolicyName } from "./rate-limit/fields.js";
export { type BudgetSpec } from "./rate-limit/limiter.js";
export { pairedSubscription } from "./rest/event-stream.js";
export { EVENT_STREAM, type BodyKind, bodyKind, isJson, mediaType } from "./runtime/body.js";
export { idsFor } from "./runtime/ids.js";
export { type HandlerResponse, type OperationSpec, type RequestContext } from "./runtime/index.js";
export { PROBLEM_TYPE, httpError, problem } from "./runtime/problem.js";
export { PROBLEMS, refusalOf } from "./runtime/problems.js";
export { checkResponse, declaredFor } from "./runtime/response-check.js";
export { DEFAULT_SERVER_LIMITS, type ServerLimits, createHttpServer } from "./server/factory.js";
export { closeMetrics, listenMetrics } from "./server/metrics-listener.js";
export { configOrExit, logDevToken } from "./server/startup.js";
export { type Store, type StoreOptions, openStore } from "./store/database.js";
export { InProcessBus } from "./store/events.js";
export { type TransportDeps, type Transports, transports } from "./transports.js";

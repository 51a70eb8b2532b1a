// twinspec-dev/testing: the spec-driven test kit an application runs with one line (`walkApi(definition)` in a mocha
// test file): every operation and root field of its specs walked against a real server and database, both
// authorization matrices, the status walks, the write-read round trips, the webhook walk, the fuzzers, the abuse walk and the per-(operation, status) coverage gate. Each part can
// be registered alone (describe…), and the servers, worlds and clients they use are exported for the application's
// own tests.
export { walkApi, describeApiWalk, type WalkOptions, type ApiWalkOptions } from "./walk.js";
export { describeRestAuthMatrix, type AuthMatrixOptions } from "./rest-auth-matrix.js";
export { describeGraphqlAuthMatrix } from "./graphql-auth-matrix.js";
export { describeAbuseWalk, type AbuseWalkOptions } from "./abuse-walk.js";
export { describeRelationWalk, type RelationWalkOptions } from "./relation-walk.js";
export { describeStatusWalks, type StatusWalkOptions } from "./status-walks.js";
export { describeRestFuzz, type FuzzOptions } from "./fuzz/rest.js";
export { describeGraphqlFuzz } from "./fuzz/graphql.js";
export {
  statusCoverageGate,
  coverageOf,
  answered,
  recordStatuses,
  asking,
  BEFORE_ROUTING,
  STEP_HEADER,
  EXPECT_HEADER,
  type CoverageOptions,
  type Coverage,
} from "./coverage.js";
export { startProcess, spawnServer, type ServerProcess, type SpawnOptions } from "./process.js";
export { startServer, TEST_RATE_LIMITS, type Faults, type TestServer, type TestServerOptions } from "./server.js";
export {
  freshDatabase,
  testDatabaseKind,
  testPostgresUrl,
  SCHEMA_PREFIX,
  type TestDatabase,
  type TestDatabaseKind,
} from "./database.js";
export { call, gql, type Reply } from "./client.js";
export { ADMIN_SUBJECT, ADMIN_TOKEN, TEST_SECRET, token } from "./tokens.js";
export { specOf, settle, pathParams, declares, urlOf, type Spec, type World, type Operation } from "./spec.js";
export { hourly, rateLimitFields } from "./rate-limit.js";
export { describeScenarios, type ScenarioOptions } from "./scenarios.js";
export { describeRoundTrips, type RoundTripOptions } from "./round-trips.js";
export { describeWebhookWalk, type WebhookWalkOptions } from "./webhook-walk.js";
export { describeTransportAgreement, type TransportAgreementOptions } from "./transport-agreement.js";

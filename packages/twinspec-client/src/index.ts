// twinspec-client: the runtime of the clients `twinspec generate` and `twinspec rest` write. The REST side here;
// the GraphQL client in "twinspec-client/graphql", TanStack Query options in "twinspec-client/query".
export { createRestRuntime, nextUrl } from "./rest/client.js";
export { RestError } from "./rest/error.js";
export { retryAfter, RETRY_DEFAULTS } from "./rest/retry.js";
export {
  verifyWebhook,
  WebhookRefused,
  type SeenIds,
  type WebhookDelivery,
  type WebhookHeaders,
} from "./webhooks/verify.js";
export {
  createWebhookParser,
  type ParseWebhook,
  type WebhookBodies,
  type WebhookEnvelope,
  type WebhookEvent,
  type WebhookParser,
} from "./webhooks/parse.js";
export type {
  ArgsOf,
  BodyOf,
  CallOptions,
  EventsOptions,
  HeadersOf,
  ItemOf,
  Method,
  OperationSpec,
  OperationTable,
  OutcomeBase,
  OutcomeOf,
  PagedIds,
  RestClient,
  RestClientOptions,
  RestHelpers,
  RetryOptions,
  StreamEvent,
  StreamIds,
  Token,
  WaitOptions,
} from "./rest/types.js";

// The one composition root: the domain, its store and job queue, behind the transports every server from the specs
// shares (transports.ts). No listen() here, so tests and main.ts mount the same app.
import type { Server } from "node:http";
import type Koa from "koa";
import type { Logger } from "pino";
import { withAuth } from "./auth/graphql.js";
import { withParentsRest } from "./auth/parents.js";
import type { Principal } from "./auth/principal.js";
import { TokenVerifier, type VerifierOptions } from "./auth/tokens.js";
import type { GraphqlConfig } from "./config.js";
import { createGraphqlRuntime, type GraphqlRuntime } from "./graphql/runtime.js";
import { buildSchema } from "./graphql/schema.js";
import { preconditionsOf } from "./http/conditional.js";
import { idempotency } from "./http/idempotency.js";
import { createMetrics, type Metrics } from "./http/metrics.js";
import { domainOutcome } from "./http/outcomes.js";
import { graphqlCharge } from "./graphql/rate-limit.js";
import { rateLimiterFor, type RateLimitConfig } from "./rate-limit/setup.js";
import type { RestContext } from "./rest/context.js";
import type { AppDefinition } from "./definition.js";
import type { Store } from "./store/database.js";
import { busFor } from "./store/bus.js";
import type { DurableBusOptions } from "./store/durable-bus.js";
import type { EventBus } from "./store/events.js";
import { readiness } from "./store/health.js";
import { JobQueue, type QueueOptions } from "./store/job-queue.js";
import type { Tracing } from "./telemetry/types.js";
import { transports, type TransportDeps, type Transports } from "./transports.js";
import type { DeliveryOptions } from "./webhooks/delivery.js";
import { webhooksFor, type Webhooks } from "./webhooks/setup.js";
import { webhookApi } from "./webhooks/api.js";
import type { IResolvers } from "@graphql-tools/utils";

/** What `buildApp` builds an application from; only `definition`, `store` and `logger` are required. */
export interface AppDeps<Services = any> {
  /** the application: what generated/wiring.ts exports as `definition` */
  definition: AppDefinition<Services>;
  /** the opened and migrated database (`openStore`); the caller closes it after `App.close` */
  store: Store;
  /** the pino logger every request's log line, the domain's `deps.log` and the job queue write to */
  logger: Logger;
  /** HS256 secret that bearer tokens are signed with (AUTH_SECRET); without it only the identity provider's are accepted */
  authSecret?: string;
  /** an identity provider's JWKS, issuer and audience (AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE) */
  identity?: Omit<VerifierOptions, "secret">;
  /** OpenTelemetry spans for requests and GraphQL operations (pass its query hook to openStore too); none when unset */
  tracing?: Tracing;
  /** when set, /metrics needs `Authorization: Bearer <metricsToken>` */
  metricsToken?: string;
  /** how /metrics answers on this app's server (default "served"; config.ts picks "closed" in production without a token) */
  metricsEndpoint?: TransportDeps["metricsEndpoint"];
  /** GraphiQL's page on GET /graphql for browsers (default on; GRAPHIQL) */
  graphiql?: boolean;
  /** /docs, /openapi.json, /openapi.yaml (default on; DOCS) */
  docs?: boolean;
  /** WebSocket connections and SSE streams per address, operations per WebSocket (default 100 each) */
  connections?: TransportDeps["connections"];
  /** defaults to the store's: the durable event log, woken by LISTEN/NOTIFY across instances on PostgreSQL */
  bus?: EventBus;
  /** the store's bus: retention and polling of the event log */
  events?: DurableBusOptions;
  /** largest request body accepted on REST and GraphQL, in bytes (413 beyond; default 1 MiB, BODY_LIMIT) */
  bodyLimit?: number;
  /** check REST responses against the spec (default: on unless NODE_ENV=production) */
  responseValidation?: boolean;
  /** the job queue's lease, poll interval and attempts (defaults: 30 000 ms, 500 ms, 5) */
  jobs?: QueueOptions;
  /** webhook delivery's schedule, lease, poll, timeout and address policy (DeliveryOptions; defaults there) */
  webhooks?: DeliveryOptions;
  /** origins allowed to call from browsers (CORS); ["*"] = any */
  corsOrigins?: string[];
  /** GraphQL introspection and limits (defaults: introspection on, depth 10, cost 5000, 30 aliases; config.ts turns introspection off in production) */
  graphql?: Partial<GraphqlConfig>;
  /** metrics registry (default: one made here); create it before openStore and pass its onQuery there (as countQuery) so db_queries_total counts */
  metrics?: Metrics;
  /** interval of WebSocket keep-alive pings (ms, default 12 000) */
  wsKeepAliveMs?: number;
  /** longest URL accepted (414 beyond; default 8192, MAX_URL_LENGTH) */
  maxUrlLength?: number;
  /** the specs' rate limits, scaled or replaced (default: as declared) */
  rateLimits?: Partial<RateLimitConfig>;
}

/** An application built by `buildApp`, not yet listening: hand `callback` to a server, then `attach` and `start`. */
export interface App<Services = any> extends Pick<Transports, "callback" | "around" | "use"> {
  /** the Koa app behind `callback` (its `callback()`): its middleware is the server's one pipeline */
  koa: Koa;
  /** the application's services, as `definition.createServices` made them */
  services: Services;
  /** where domain changes are published: the durable event log (woken by LISTEN/NOTIFY across instances on PostgreSQL) */
  bus: EventBus;
  /** the metrics registry /metrics serves (AppDeps.metrics, or one made here) */
  metrics: Metrics;
  /** the GraphQL schema, preparation and execution every GraphQL transport uses */
  graphql: GraphqlRuntime;
  /**
   * Serves GraphQL over WebSocket (graphql-ws) on /graphql of this server; call once the server exists.
   *
   * @param server - the HTTP server whose request listener is `callback`
   */
  attach(server: Server): void;
  /** the application's declared webhooks: the endpoints callers registered, and their delivery (undefined when none is declared) */
  webhooks?: Webhooks;
  /** starts background work (the job queue, webhook delivery); resolves once the first pass of each is over */
  start(): Promise<void>;
  /** pauses the job queue (waits for the job in hand); `resumeJobs` resumes it */
  stopJobs(): Promise<void>;
  /** resumes the job queue `stopJobs` paused */
  resumeJobs(): void;
  /** how many jobs wait or run (any instance's): 0 once every job asked for has ended */
  jobsInHand(): Promise<number>;
  /** ends subscriptions (WebSocket and SSE) and stops background work; the caller closes the store afterwards */
  close(): Promise<void>;
}

/** The handlers and resolvers of the parts `contract` includes (none: nothing to add). */
function partsServed(
  contract: AppDefinition["contract"],
  webhooks: Webhooks | undefined,
): { handlers: object; resolvers: IResolvers[] } {
  const served = { handlers: {}, resolvers: [] as IResolvers[] };
  for (const part of contract.parts ?? []) {
    if (part !== "webhook-endpoints") throw new Error(`the specs include the part "${part}", which this runtime lacks`);
    if (!webhooks || !contract.webhooks)
      throw new Error("the specs include webhook-endpoints but declare no webhooks: run `npm run generate`");
    const api = webhookApi(webhooks, contract.webhooks);
    Object.assign(served.handlers, api.handlers);
    served.resolvers.push(api.resolvers);
  }
  return served;
}

/**
 * The one composition root: the application's services over the store, the job queue and the event bus, behind
 * every transport of the specs (REST, GraphQL over HTTP, SSE and WebSocket, docs, health, metrics). It does not
 * listen: `serve` does, or a test's server (`callback`, then `attach` and `start`).
 *
 * @param deps - the application, its store and logger, and the optional settings `AppDeps` lists with their defaults
 */
export function buildApp<Services>({
  definition,
  store,
  logger,
  authSecret,
  metricsToken,
  metricsEndpoint,
  graphiql,
  docs,
  connections,
  events,
  bus = busFor(store, logger, events),
  bodyLimit,
  responseValidation,
  jobs,
  webhooks: webhookOptions,
  corsOrigins = [],
  graphql = {},
  metrics = createMetrics(),
  wsKeepAliveMs,
  maxUrlLength,
  identity,
  tracing,
  rateLimits: limits,
}: AppDeps<Services>): App<Services> {
  const { contract, restHandlers } = definition;
  const queue = new JobQueue(store, logger, jobs);
  const services = definition.createServices({ store, bus, queue, log: logger });
  const owners = definition.ownerLookup(services);
  const parents = definition.parentCheck(services);
  const verifier = new TokenVerifier({ ...identity, secret: authSecret, jwks: { log: logger, ...identity?.jwks } });
  const limiter = rateLimiterFor(store, contract.rateLimits.budgets, limits, logger);
  const webhooks =
    contract.webhooks && Object.keys(contract.webhooks).length
      ? webhooksFor(store, bus, contract.webhooks, owners, authSecret, logger, metrics, webhookOptions)
      : undefined;
  // The Twinspec parts the specs include are served here: their handlers and resolvers are the framework's.
  const parts = partsServed(contract, webhooks);
  // @auth directives of schema.graphql, enforced around the resolvers (src/auth/graphql.ts).
  const gql = createGraphqlRuntime(definition, services, bus, {
    ...graphql,
    log: logger,
    schema: withAuth(
      buildSchema({ ...definition, resolvers: [...parts.resolvers, ...definition.resolvers] }, undefined, parents),
      owners,
      contract.graphqlOwnership,
    ),
    tracing,
    charge: graphqlCharge(limiter, contract.rateLimits.graphql),
  });
  const http = transports({
    definition,
    logger,
    verifier,
    owners,
    metrics,
    metricsToken,
    metricsEndpoint,
    graphiql,
    docs,
    connections,
    readiness: () => readiness(store, bus),
    graphql: gql,
    rest: {
      // A part's operation answered by the application's own handler, if it gives one.
      handlers: { ...parts.handlers, ...withParentsRest(restHandlers, contract.restParents, parents) },
      context: (_ctx, { requestId, operationId, conditions }, principal): RestContext<Services> => ({
        requestId,
        operationId,
        conditions,
        services,
        principal: principal as Principal | null,
        preconditions: preconditionsOf(conditions),
      }),
      mapError: domainOutcome,
      around: idempotency(store.idempotencyKeys),
    },
    bodyLimit,
    responseValidation,
    corsOrigins,
    wsKeepAliveMs,
    maxUrlLength,
    tracing,
    rateLimiter: limiter,
  });
  // What a leak would grow (the soak bench watches it): listeners held by subscriptions.
  metrics.gauge("event_bus_listeners", "Listeners on the event bus (one per live subscription)", () =>
    bus.listenerCount(),
  );
  return {
    koa: http.koa,
    callback: http.callback,
    around: (middleware) => http.around(middleware),
    use: (middleware) => http.use(middleware),
    services,
    bus,
    metrics,
    graphql: gql,
    attach: (server) => http.attach(server),
    ...(webhooks ? { webhooks } : {}),
    start: async () => void (await Promise.all([webhooks?.delivery.start(), queue.start()])),
    stopJobs: () => queue.stop(),
    resumeJobs: () => queue.resume(),
    jobsInHand: () => queue.inHand(),
    close: async () => {
      await http.close();
      await queue.stop();
      await webhooks?.close();
      await bus.close();
      await limiter.close();
    },
  };
}

// The one composition root: transport middleware, the generated REST wiring, GraphQL, over one domain.
// No listen() here, so tests and main.ts mount the same app.
import type { Server } from "node:http";
import zlib from "node:zlib";
import Router from "@koa/router";
import compress from "koa-compress";
import Koa from "koa";
import type { Logger } from "pino";
import { operationSpecs, restRoutes } from "../generated/rest.js";
import { withAuth } from "./auth/graphql.js";
import { graphqlCaller, metricsGuard, socketCaller } from "./auth/koa.js";
import { restAuthorizer } from "./auth/rest.js";
import { TokenVerifier, type VerifierOptions } from "./auth/tokens.js";
import { createServices, type Services } from "./domain/services.js";
import type { GraphqlConfig } from "./config.js";
import { graphiqlAssets } from "./graphql/graphiql.js";
import { graphqlHttp } from "./graphql/http.js";
import { createGraphqlRuntime, type GraphqlRuntime } from "./graphql/runtime.js";
import { buildSchema } from "./graphql/schema.js";
import { graphqlSse } from "./graphql/sse.js";
import { attachWebSocket } from "./graphql/ws.js";
import { conditionalGet } from "./http/conditional.js";
import { mountDocs } from "./http/docs.js";
import { corsFor } from "./http/cors.js";
import { problemErrors } from "./http/errors.js";
import { createMetrics, routeLabeler, type Metrics } from "./http/metrics.js";
import { notFound } from "./http/not-found.js";
import { requestId } from "./http/request-id.js";
import { restHandlers } from "./rest/index.js";
import type { Store } from "./store/database.js";
import { busFor } from "./store/bus.js";
import type { EventBus } from "./store/events.js";
import { readiness } from "./store/health.js";
import type { QueueOptions } from "./store/job-queue.js";
import type { Tracing } from "./telemetry/types.js";

export interface AppDeps {
  store: Store;
  logger: Logger;
  /** HS256 secret that bearer tokens are signed with (AUTH_SECRET); without it only the identity provider's are accepted */
  authSecret?: string;
  /** an identity provider's JWKS, issuer and audience (AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE) */
  identity?: Omit<VerifierOptions, "secret">;
  /** when set, /metrics needs `Authorization: Bearer <metricsToken>` */
  metricsToken?: string;
  /** defaults to the store's: in-process on SQLite, LISTEN/NOTIFY across instances on PostgreSQL */
  bus?: EventBus;
  bodyLimit?: number;
  /** check REST responses against the spec (default: on unless NODE_ENV=production) */
  responseValidation?: boolean;
  jobs?: QueueOptions;
  /** origins allowed to call from browsers (CORS); ["*"] = any */
  corsOrigins?: string[];
  /** GraphQL introspection and limits (defaults: introspection on, depth 10, cost 5000, 30 aliases) */
  graphql?: Partial<GraphqlConfig>;
  /** metrics registry; create it before openStore and pass its onQuery there so db_queries_total counts */
  metrics?: Metrics;
  /** interval of WebSocket keep-alive pings (ms, default 12 000) */
  wsKeepAliveMs?: number;
  /** OpenTelemetry spans for requests and GraphQL operations (pass its query hook to openStore too); none when unset */
  tracing?: Tracing;
}

export interface App {
  koa: Koa;
  services: Services;
  metrics: Metrics;
  /** the GraphQL schema, preparation and execution every GraphQL transport uses */
  graphql: GraphqlRuntime;
  /** serves GraphQL over WebSocket (graphql-ws) on /graphql of this server; call once the server exists */
  attach(server: Server): void;
  /** starts background work (the job queue) */
  start(): void;
  /** ends subscriptions (WebSocket and SSE) and stops background work; the caller closes the store afterwards */
  close(): Promise<void>;
}

export function buildApp({ store, logger, authSecret, identity, metricsToken, bus = busFor(store, logger), bodyLimit, responseValidation, jobs, corsOrigins = [], graphql = {}, metrics = createMetrics(), wsKeepAliveMs, tracing }: AppDeps): App {
  const services = createServices(store, bus, logger, jobs);
  const verifier = new TokenVerifier({ ...identity, secret: authSecret, jwks: { log: logger, ...identity?.jwks } });
  const koa = new Koa();
  koa.proxy = false;
  // Errors are answered as problems by problemErrors; Koa's own printer would only duplicate them.
  koa.silent = true;

  const router = new Router({ exclusive: "specificity" });
  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    const { ready, body } = await readiness(store, bus);
    ctx.set("Cache-Control", "no-store");
    ctx.status = ready ? 200 : 503;
    ctx.body = body;
  });
  router.get("/metrics", metricsGuard(metricsToken), metrics.endpoint);
  // @auth directives of schema.graphql, enforced around the resolvers (src/auth/graphql.ts).
  const gql = createGraphqlRuntime(services, { ...graphql, log: logger, schema: withAuth(buildSchema(), store.db), tracing });
  router.all("/graphql", graphqlCaller(verifier), graphqlHttp(gql, { bodyLimit }));
  router.all("/graphql/stream", graphqlCaller(verifier), graphqlSse(gql, { bodyLimit }));
  router.get("/graphql/assets/:name", graphiqlAssets());
  mountDocs(router);
  // The spec's paths are found by the generated wiring's own trie, ahead of the router: its cost does not grow
  // with the number of operations, and REST requests skip the router's regex walk.
  const rest = restRoutes(restHandlers(services, store.db), { bodyLimit, validateResponses: responseValidation, authorize: restAuthorizer(verifier, store.db) });

  const entryPoints = [...new Set(operationSpecs.map((op) => op.path))].concat("/graphql");
  const routes = [...entryPoints, "/graphql/stream", "/graphql/assets/{name}", "/healthz", "/readyz", "/metrics", "/docs", "/openapi.json", "/openapi.yaml"];
  const routeOf = routeLabeler(routes);
  if (tracing) koa.use(tracing.http(routeOf));
  koa.use(metrics.middleware(routeOf));
  koa.use(requestId(logger));
  koa.use(corsFor(corsOrigins));
  // br at quality 4: most of the size win at a small share of the default (11) CPU cost.
  koa.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));
  koa.use(problemErrors());
  koa.use(notFound(entryPoints));
  koa.use(conditionalGet());
  koa.use(rest);
  koa.use(router.routes());
  let ws: ReturnType<typeof attachWebSocket> | undefined;
  return {
    koa,
    services,
    metrics,
    graphql: gql,
    attach: (server) => {
      ws ??= attachWebSocket(server, gql, { keepAliveMs: wsKeepAliveMs, authenticate: socketCaller(verifier) });
    },
    start: () => services.queue.start(),
    close: async () => {
      await gql.streams.closeAll();
      await ws?.close();
      await services.queue.stop();
      await bus.close();
    },
  };
}

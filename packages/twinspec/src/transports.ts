// What every server built from the specs answers with, whatever stands behind it (the domain in app.ts, the mock in
// src/mock/app.ts): the transport middleware, /healthz, /readyz, /metrics, the docs, GraphQL over HTTP, SSE and
// WebSocket, and the generated REST wiring with its bearer authorizer.
import type { Server } from "node:http";
import zlib from "node:zlib";
import Router from "@koa/router";
import compress from "koa-compress";
import Koa, { type Middleware } from "koa";
import type { Logger } from "pino";
import type { AppDefinition } from "./definition.js";
import { graphqlCaller, metricsClosed, metricsGuard, socketCaller } from "./auth/koa.js";
import type { OwnerLookup } from "./definition.js";
import { restAuthorizer } from "./auth/rest.js";
import type { TokenVerifier } from "./auth/tokens.js";
import { graphiqlAssets } from "./graphql/graphiql.js";
import { graphqlHttp } from "./graphql/koa.js";
import type { GraphqlRuntime } from "./graphql/runtime.js";
import { graphqlSse } from "./graphql/sse.js";
import { attachWebSocket } from "./graphql/ws.js";
import { corsFor } from "./http/cors.js";
import { mountDocs } from "./http/docs.js";
import { requestPolicy } from "./http/policy.js";
import { DEFAULT_SERVER_LIMITS } from "./server/factory.js";
import { routeLabeler, type Metrics, type MetricsEndpoint } from "./http/metrics.js";
import type { ConnectionLimits } from "./graphql/connection-limits.js";
import type { MountOptions } from "./runtime/index.js";
import type { Tracing } from "./telemetry/types.js";
import type { RateLimiter } from "./rate-limit/limiter.js";
import { rateLimited } from "./rate-limit/rest.js";
import { eventStreamHandlers } from "./rest/event-stream.js";
import { refusalOf } from "./runtime/problems.js";
import { koaListener, type RequestListener } from "./server/seam.js";
import { upgradeOf, upgradesThrough } from "./server/upgrade.js";

export interface TransportDeps {
  /** the application: its operations, routes and contract (generated/wiring.ts `definition`) */
  definition: Pick<AppDefinition, "operationSpecs" | "restRoutes" | "contract">;
  logger: Logger;
  verifier: TokenVerifier;
  /** who owns an instance, for the ownership rule of both authorizers */
  owners: OwnerLookup;
  metrics: Metrics;
  /** when set, /metrics needs `Authorization: Bearer <metricsToken>` */
  metricsToken?: string;
  /** how /metrics answers here (default "served": behind metricsToken when set) */
  metricsEndpoint?: MetricsEndpoint;
  /** GraphiQL's page on GET /graphql for browsers (default on) */
  graphiql?: boolean;
  /** /docs, /openapi.json, /openapi.yaml (default on) */
  docs?: boolean;
  /** WebSocket connections and SSE streams per address, operations per WebSocket (defaults: 100 each) */
  connections?: Partial<ConnectionLimits>;
  /** what /readyz answers */
  readiness: () => Promise<{ ready: boolean; body: unknown }>;
  graphql: GraphqlRuntime;
  rest: { handlers: object } & Pick<MountOptions, "context" | "mapError" | "around">;
  bodyLimit?: number;
  responseValidation?: boolean;
  corsOrigins?: string[];
  wsKeepAliveMs?: number;
  /** longest URL accepted (414 beyond; default 8192, MAX_URL_LENGTH) */
  maxUrlLength?: number;
  /** a server span for every request (OpenTelemetry); none when unset */
  tracing?: Tracing;
  /** counts REST operations against the budgets the spec declares (none: no rate limits) */
  rateLimiter?: RateLimiter;
}

export interface Transports {
  koa: Koa;
  /** the server's request listener: every request runs `koa.middleware` (src/server/seam.ts) */
  callback: RequestListener;
  /**
   * Adds a middleware around every request, outermost (e.g. a test's recorder).
   *
   * @param middleware - a Koa middleware; it sees every request before Twinspec's edge, and the answer after it
   */
  around(middleware: Middleware): void;
  /**
   * Adds an application's Koa middleware: it runs for every request (the spec's operations, /graphql, the docs,
   * health, whatever the headers), after Twinspec's edge (request id, log line, metrics, CORS, compression, URL
   * length) and before the answer, in the order added. Before the first request only.
   *
   * @param middleware - a Koa middleware
   */
  use(middleware: Middleware): void;
  /** serves GraphQL over WebSocket (graphql-ws) on /graphql of this server; call once the server exists */
  attach(server: Server): void;
  /** ends subscriptions (WebSocket and SSE) */
  close(): Promise<void>;
}

export function transports(deps: TransportDeps): Transports {
  const { logger, verifier, owners, metrics, graphql: gql, bodyLimit } = deps;
  const { operationSpecs, restRoutes, contract } = deps.definition;
  const koa = new Koa();
  koa.proxy = false;
  // Errors are answered as problems by the request policy (http/policy.ts); Koa's own printer would only duplicate them.
  koa.silent = true;

  const router = new Router({ exclusive: "specificity" });
  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });
  let closing = false;
  router.get("/readyz", async (ctx) => {
    const checked = closing ? undefined : await deps.readiness();
    // `closing` read again once the database answered: a stop that began meanwhile is what the balancer must hear.
    const { ready, body } = closing ? { ready: false, body: { status: "stopping" } } : checked!;
    ctx.set("Cache-Control", "no-store");
    ctx.status = ready ? 200 : 503;
    ctx.body = body;
  });
  const metricsEndpoint = deps.metricsEndpoint ?? "served";
  if (metricsEndpoint === "served") router.get("/metrics", metricsGuard(deps.metricsToken), metrics.endpoint);
  else if (metricsEndpoint === "closed") router.get("/metrics", metricsClosed);
  const refused = metrics.counter(
    "graphql_limit_refusals_total",
    "GraphQL connections and operations refused by a connection limit",
    "limit",
  );
  // /graphql is found ahead of the router (like the spec's paths): @koa/router composes its layers per request.
  const caller = graphqlCaller(verifier);
  const graphiql = deps.graphiql ?? true;
  const graphqlEndpoint = graphqlHttp(gql, { bodyLimit, graphiql });
  router.all(
    "/graphql/stream",
    graphqlCaller(verifier),
    graphqlSse(gql, { bodyLimit, streamsPerAddress: deps.connections?.sseStreamsPerAddress, onRefused: refused }),
  );
  if (graphiql) router.get("/graphql/assets/:name", graphiqlAssets());
  if (deps.docs ?? true) mountDocs(router, undefined, contract.parts);
  // The spec's paths are found by the generated wiring's own trie, ahead of the router: its cost does not grow
  // with the number of operations, and REST requests skip the router's regex walk.
  // Event-stream operations are served from their paired subscriptions, unless the app gives a handler of its own.
  const rest = restRoutes(
    { ...eventStreamHandlers(operationSpecs, contract.pairs, gql), ...deps.rest.handlers },
    {
      bodyLimit,
      validateResponses: deps.responseValidation,
      authorize: deps.rateLimiter
        ? rateLimited(
            restAuthorizer(verifier, owners, contract.restOwnership),
            deps.rateLimiter,
            contract.rateLimits.rest,
          )
        : restAuthorizer(verifier, owners, contract.restOwnership),
      context: deps.rest.context,
      mapError: deps.rest.mapError,
      around: deps.rest.around,
    },
  );

  const entryPoints = [...new Set(operationSpecs.map((op) => op.path))].concat("/graphql");
  const routes = [
    ...entryPoints,
    "/graphql/stream",
    "/graphql/assets/{name}",
    "/healthz",
    "/readyz",
    "/metrics",
    "/docs",
    "/openapi.json",
    "/openapi.yaml",
  ];
  const routeOf = routeLabeler(routes);
  if (deps.tracing) koa.use(deps.tracing.http(routeOf));
  const origins = deps.corsOrigins ?? [];
  const edgeware = requestPolicy({
    logger,
    metrics,
    routeOf,
    cors: corsFor(origins),
    corsOn: origins.length > 0,
    // br at quality 4: most of the size win at a small share of the default (11) CPU cost.
    compress: compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }),
    compressThreshold: 1024,
    maxUrlLength: deps.maxUrlLength ?? DEFAULT_SERVER_LIMITS.maxUrlLength,
    entryPoints,
    stopping: () => closing,
  });
  // The one order every request runs in: what `around` adds (tests' recorders), tracing, the edge, what the
  // application adds with use(), then whichever answers the path — the spec's operations, /graphql, the router.
  koa.use(edgeware);
  const graphqlPost: Middleware = (ctx, next) => caller(ctx, () => graphqlEndpoint(ctx, next));
  const routed = router.routes() as Middleware;
  const ws = attachWebSocket(gql, {
    keepAliveMs: deps.wsKeepAliveMs,
    authenticate: socketCaller(verifier),
    limits: deps.connections,
    onRefused: refused,
  });
  // One layer answers: an upgrade is GraphQL over WebSocket's; the REST runtime takes the spec's paths and hands on
  // every other one.
  const answer: Middleware = (ctx, next) => {
    if (upgradeOf(ctx.req)) {
      if (ctx.request.path === "/graphql") return ws.accept(ctx);
      throw refusalOf(
        "no_route",
        "WebSocket connections are served on /graphql (subprotocol graphql-transport-ws) only.",
      );
    }
    return rest(ctx, () => (ctx.request.path === "/graphql" ? graphqlPost(ctx, next) : routed(ctx, next)));
  };
  koa.use(answer);
  const { listener: callback, started } = koaListener(koa);
  let stopUpgrades: (() => void) | undefined;
  // What a leak would grow (the soak bench watches them): subscription streams, and their connections.
  metrics.gauge("graphql_live_streams", "Subscription streams open (graphql-ws and SSE)", () => gql.streams.size);
  metrics.gauge("graphql_ws_connections", "WebSocket connections open on /graphql", () => ws.wss.clients.size);
  metrics.gauge(
    "graphql_ws_subscriptions",
    "Operations active on WebSocket connections (subscriptions, and queries being answered)",
    () => ws.activeOperations(),
  );
  return {
    koa,
    callback,
    use: (middleware) => {
      if (started())
        throw new Error("app.use() after the server took its first request: add middleware before it listens");
      koa.middleware.splice(koa.middleware.indexOf(answer), 0, middleware);
    },
    around: (middleware) => {
      koa.middleware.unshift(middleware);
    },
    attach: (server) => {
      stopUpgrades ??= upgradesThrough(server, callback);
    },
    close: async () => {
      closing = true;
      await gql.streams.closeAll();
      // graphql-ws sends `complete` for each ended stream within this turn of the event loop; the sockets close
      // (1001) after it, so clients see their subscriptions completed rather than cut.
      await new Promise((resolve) => setImmediate(resolve));
      stopUpgrades?.();
      await ws.close();
    },
  };
}

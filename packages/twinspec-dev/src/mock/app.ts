// The mock server (`npm run mock`): every REST operation and GraphQL root field answered from the specs alone, with
// no domain and no database, behind the very transports of the real server (src/transports.ts): the generated REST
// wiring (validation, 405/406/413/415, problem+json, response validation), bearer tokens and scopes, GraphQL over
// HTTP, SSE and WebSocket with @auth and the limits. Ownership needs data the mock does not have: every instance
// counts as the caller's own, while collection-wide operations still need `admin`, as the specs say. A URL registered
// at POST /webhook-endpoints gets each declared webhook's example, signed (webhooks.ts).
import type { Server } from "node:http";
import type Koa from "koa";
import type { Logger } from "pino";
import type { AppDefinition } from "twinspec/internals";
import { withAuth } from "twinspec/internals";
import { TokenVerifier, type VerifierOptions } from "twinspec/internals";
import { loadWithParts } from "../codegen/load/parts.js";
import type { GraphqlConfig } from "twinspec/internals";
import { createGraphqlRuntime } from "twinspec/internals";
import { createMetrics, type Metrics } from "twinspec/internals";
import type { HandlerResponse, RequestContext } from "twinspec/internals";
import { projectFile } from "twinspec/internals";
import { InProcessBus } from "twinspec/internals";
import { pairedSubscription } from "twinspec/internals";
import { transports, type TransportDeps, type Transports } from "twinspec/internals";
import { createAnswers, schemaSampler, type MockRequest } from "./answers.js";
import { mockSchema, TICK } from "./graphql.js";
import { preferences } from "./prefer.js";
import { mockWebhooks } from "./webhooks.js";

/** What `buildMockApp` builds the mock from: the real server's AppDeps without a store; only `definition` and `logger` are required. */
export interface MockAppDeps {
  /** the application whose specs the mock answers for (generated/wiring.ts `definition`); its domain is never called */
  definition: AppDefinition;
  /** the pino logger request lines and errors are written to */
  logger: Logger;
  /** HS256 secret that bearer tokens are signed with (AUTH_SECRET); without it only the identity provider's tokens are accepted */
  authSecret?: string;
  /** an identity provider's JWKS, issuer and audience, as for the real server */
  identity?: Omit<VerifierOptions, "secret">;
  /** when set, /metrics needs `Authorization: Bearer <metricsToken>` */
  metricsToken?: string;
  /** how /metrics answers (default "served"), as the real server's (AppDeps) */
  metricsEndpoint?: TransportDeps["metricsEndpoint"];
  /** GraphiQL's page on GET /graphql for browsers (default on) */
  graphiql?: boolean;
  /** /docs, /openapi.json, /openapi.yaml (default on) */
  docs?: boolean;
  /** WebSocket connections and SSE streams per address, operations per WebSocket (default 100 each) */
  connections?: TransportDeps["connections"];
  /** metrics registry (default: one made here) */
  metrics?: Metrics;
  /** largest request body, in bytes (413 beyond; default 1 MiB) */
  bodyLimit?: number;
  /** check every answer against the spec (default: on unless NODE_ENV=production) */
  responseValidation?: boolean;
  /** origins allowed to call from browsers (CORS); ["*"] = any; default none */
  corsOrigins?: string[];
  /** GraphQL introspection and limits (defaults: introspection on, depth 10, cost 5000, 30 aliases) */
  graphql?: Partial<GraphqlConfig>;
  /** interval of WebSocket keep-alive pings (ms, default 12 000) */
  wsKeepAliveMs?: number;
  /** how often every subscription gets a mocked event (ms, default 5000) */
  eventIntervalMs?: number;
}

/** The mock server, not yet listening: hand `callback` to a server (createHttpServer), then `attach`. */
export interface MockApp extends Pick<Transports, "callback" | "around"> {
  /** the Koa app behind `callback` */
  koa: Koa;
  /**
   * Serves GraphQL over WebSocket (graphql-ws) on /graphql of this server; call once the server exists.
   *
   * @param server - the HTTP server whose request listener is `callback`
   */
  attach(server: Server): void;
  /** ends subscriptions and the mocked events' clock */
  close(): Promise<void>;
}

/** The mock has no domain: a resolver or loader reaching for one is a bug in the mock, and says so. */
const noDomain = new Proxy(
  {},
  {
    get: (_, name) => {
      throw new Error(`the mock server has no domain (services.${String(name)})`);
    },
  },
);

/**
 * The mock server: every REST operation and GraphQL root field answered from the specs alone (openapi.yaml is read
 * from the project's root), behind the real server's transports, with no domain and no database. Every instance
 * counts as the caller's own; collection-wide operations still need `admin`. Each subscription gets a mocked event
 * every `eventIntervalMs`.
 *
 * @param deps - the application and logger, and the optional settings `MockAppDeps` lists with their defaults
 */
export function buildMockApp({
  definition,
  logger,
  authSecret,
  identity,
  metricsToken,
  metricsEndpoint,
  graphiql,
  docs,
  connections,
  metrics = createMetrics(),
  bodyLimit,
  responseValidation,
  corsOrigins,
  graphql = {},
  wsKeepAliveMs,
  eventIntervalMs = 5000,
}: MockAppDeps): MockApp {
  // The document generated/rest.ts was made from.
  const doc = loadWithParts(projectFile("openapi.yaml"));
  const { operationSpecs, contract, scalars } = definition;
  const answer = createAnswers(doc, contract.resources);
  const owners = async () => null;
  const bus = new InProcessBus();
  const gql = createGraphqlRuntime(definition, noDomain, bus, {
    ...graphql,
    log: logger,
    schema: withAuth(mockSchema(schemaSampler(doc), contract, scalars), owners, contract.graphqlOwnership),
  });
  const handlers = Object.fromEntries(
    // Event streams are served from the mock's subscriptions (src/rest/event-stream.ts), with its ticking events.
    operationSpecs
      .filter((op) => !pairedSubscription(op, contract.pairs))
      .map((op) => [
        op.operationId,
        async (req: MockRequest, ctx: RequestContext & { prefer: Map<string, string> }): Promise<HandlerResponse> =>
          answer(op, ctx.prefer, req),
      ]),
  ); // one generic handler per operation, where the real ones are typed per operation
  const http = transports({
    definition,
    logger,
    verifier: new TokenVerifier({ ...identity, secret: authSecret, jwks: { log: logger, ...identity?.jwks } }),
    owners,
    metrics,
    metricsToken,
    metricsEndpoint,
    graphiql,
    docs,
    connections,
    readiness: async () => ({ ready: true, body: { status: "ready", mock: true } }),
    graphql: gql,
    rest: { handlers, context: (ctx, base) => ({ ...base, prefer: preferences(ctx.get("Prefer") || undefined) }) },
    bodyLimit,
    responseValidation,
    corsOrigins,
    wsKeepAliveMs,
  });
  // The declared webhooks' endpoints: example deliveries to a registered URL (webhooks.ts).
  const hooks = Object.keys(contract.webhooks ?? {}).length ? mockWebhooks(doc, logger) : undefined;
  if (hooks) http.use(hooks.middleware);
  let tick = 0;
  const clock = setInterval(() => void bus.publish(TICK, ++tick), eventIntervalMs).unref();
  return {
    koa: http.koa,
    callback: http.callback,
    around: (middleware) => http.around(middleware),
    attach: (server) => http.attach(server),
    close: async () => {
      clearInterval(clock);
      hooks?.close();
      await http.close();
      await bus.close();
    },
  };
}

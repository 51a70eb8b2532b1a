// Configuration from the environment, read once at start. Every knob is documented in docs/configuration.md.
import type { Budget } from "./definition.js";
import { resolveSecret, type AuthConfig } from "./auth/secret.js";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./server/factory.js";
import { parseBudgets, type RateLimitConfig } from "./rate-limit/setup.js";
import { tracingFromEnv, type TracingConfig } from "./telemetry/config.js";
import { DEFAULT_DATABASE_URL } from "./store/database.js";
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "./graphql/connection-limits.js";
import type { MetricsEndpoint } from "./http/metrics.js";

/** The server's configuration, as `configFromEnv` reads it (each variable and default: docs/configuration.md). */
export interface Config {
  /** the interface to listen on (HOST; default 127.0.0.1) */
  host: string;
  /** the port (PORT; default 3000; 0: any free port) */
  port: number;
  /** the database (DATABASE_URL; default `DEFAULT_DATABASE_URL`) */
  databaseUrl: string;
  /** PostgreSQL: most pooled connections per instance (DATABASE_POOL_MAX) */
  databasePoolMax: number;
  /** pino's level (LOG_LEVEL; default "info") */
  logLevel: string;
  /** largest request body, in bytes (BODY_LIMIT; default 1 MiB) */
  bodyLimit: number;
  /** check REST handler responses against openapi.yaml (RESPONSE_VALIDATION=on|off; off by default in production) */
  responseValidation: boolean;
  /** the job queue's lease and poll interval, in ms (JOB_LEASE_MS, default 30 000; JOB_POLL_MS, default 500) */
  jobs: { leaseMs: number; pollMs: number };
  /**
   * Webhook delivery: the waits between attempts (WEBHOOK_SCHEDULE_MS, comma-separated ms; default 5 s … 8 h, over
   * 24 h), claim lease and poll (WEBHOOK_LEASE_MS, WEBHOOK_POLL_MS), a receiver's time to answer (WEBHOOK_TIMEOUT_MS),
   * and whether http: URLs and private addresses may be registered and reached (WEBHOOK_ALLOW_HTTP,
   * WEBHOOK_ALLOW_PRIVATE = on|off; default off); how long attempts are kept (WEBHOOK_ATTEMPT_RETENTION_MS, default 7
   * days) and how many per endpoint (WEBHOOK_ATTEMPTS_PER_ENDPOINT, default 1000)
   */
  webhooks: {
    scheduleMs?: number[];
    leaseMs: number;
    pollMs: number;
    timeoutMs: number;
    attemptRetentionMs: number;
    attemptsPerEndpoint: number;
    policy: { allowHttp: boolean; allowPrivate: boolean };
  };
  /** the event log: how long events are kept for resuming streams, how often it is read without a wake */
  events: { retentionMs: number; pollMs: number };
  /** origins allowed to call from browsers (CORS_ORIGINS, comma-separated; default none: no CORS) */
  corsOrigins: string[];
  /**
   * Bearer tokens and /metrics: the HS256 secret (AUTH_SECRET; made up per start outside production, `generated`
   * then true), the identity provider (AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE) and METRICS_TOKEN
   */
  auth: AuthConfig & { metricsToken?: string };
  /** GraphQL's introspection and limits (GRAPHQL_*) */
  graphql: GraphqlConfig;
  /** PostgreSQL: longest wait for a connection, and the probe that finds the database down (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_PING_MS, DATABASE_PING_TIMEOUT_MS) */
  database: { connectTimeoutMs: number; pingMs: number; pingTimeoutMs: number };
  /** timeouts and size limits of the HTTP server (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_HEADER_BYTES, MAX_URL_LENGTH) */
  server: ServerLimits;
  /** SIGTERM/SIGINT: how long in-flight requests may take to finish before the process exits anyway (SHUTDOWN_GRACE_MS) */
  shutdownGraceMs: number;
  /** OpenTelemetry: set when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, …) */
  tracing?: TracingConfig;
  /** the specs' rate limits, scaled (RATE_LIMIT_FACTOR) or replaced (RATE_LIMITS); PostgreSQL sync (RATE_LIMIT_SYNC_MS) */
  rateLimits: RateLimitConfig;
  /** GraphiQL's page on GET /graphql for browsers (GRAPHIQL=on|off; off by default in production) */
  graphiql: boolean;
  /** /docs, /openapi.json and /openapi.yaml (DOCS=on|off; on by default: the REST contract is public) */
  docs: boolean;
  /** /metrics: on a listener of its own (METRICS_PORT), and how the main port answers it */
  metrics: { port?: number; endpoint: MetricsEndpoint };
  /** WebSocket connections and SSE streams per address, operations per WebSocket (WS_MAX_*, SSE_MAX_STREAMS_PER_ADDRESS) */
  connections: ConnectionLimits;
}

/** GraphQL knobs (GRAPHQL_*): introspection and the limits checked before execution. */
export interface GraphqlConfig {
  /** `__schema` and `__type` answered (GRAPHQL_INTROSPECTION; default on, off in production) */
  introspection: boolean;
  /** deepest field nesting an operation may have (GRAPHQL_MAX_DEPTH; default 10) */
  maxDepth: number;
  /** largest cost an operation may have (GRAPHQL_MAX_COST; default 5000) */
  maxCost: number;
  /** most aliases in one document (GRAPHQL_MAX_ALIASES; default 30) */
  maxAliases: number;
  /** longest document, in UTF-8 bytes (GRAPHQL_MAX_DOCUMENT_BYTES; default 65 536) */
  maxDocumentBytes: number;
  /** largest `variables`, as JSON in UTF-8 bytes (GRAPHQL_MAX_VARIABLES_BYTES; default 65 536) */
  maxVariablesBytes: number;
  /** most tokens a document may have (GRAPHQL_MAX_TOKENS; default 1000) */
  maxTokens: number;
  /** most directives a document may apply (GRAPHQL_MAX_DIRECTIVES; default 50) */
  maxDirectives: number;
  /** longest parse + validation of one document, in ms (GRAPHQL_VALIDATION_TIMEOUT_MS; default 1000) */
  validationTimeoutMs: number;
  /** run only the documents of the client preset's manifest, a safelist (GRAPHQL_PERSISTED_ONLY=true; default false) */
  persistedOnly: boolean;
}

/** WEBHOOK_SCHEDULE_MS: the waits between attempts, comma-separated positive integers (ms). */
function schedule(value: string): number[] {
  const waits = value.split(",").map((v) => Number(v.trim()));
  if (waits.length === 0 || waits.some((w) => !Number.isInteger(w) || w <= 0))
    throw new Error(`WEBHOOK_SCHEDULE_MS must be comma-separated positive integers (ms), not "${value}"`);
  return waits;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${env[name]}"`);
  return value;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (value !== "on" && value !== "off") throw new Error(`${name} must be "on" or "off", got "${value}"`);
  return value === "on";
}

/** GRAPHQL_INTROSPECTION: true|on or false|off; unset: on, except in production. */
function introspection(env: NodeJS.ProcessEnv): boolean {
  const value = env.GRAPHQL_INTROSPECTION;
  if (value === undefined || value === "") return env.NODE_ENV !== "production";
  if (value === "true" || value === "on") return true;
  if (value === "false" || value === "off") return false;
  throw new Error(`GRAPHQL_INTROSPECTION must be "true", "on", "false" or "off", got "${value}"`);
}

function portOf(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (env[name] === undefined || env[name] === "") return undefined;
  const port = Number(env[name]);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number, got "${env[name]}"`);
  return port;
}

/**
 * /metrics on the main port: not there when a port of its own serves it; closed in production unless a token guards
 * it; otherwise served (behind METRICS_TOKEN when set).
 */
function metricsConfig(env: NodeJS.ProcessEnv, mainPort: number): Config["metrics"] {
  const port = portOf(env, "METRICS_PORT");
  if (port !== undefined && port !== 0 && port === mainPort)
    throw new Error(`METRICS_PORT must differ from PORT (${mainPort})`);
  if (port !== undefined) return { port, endpoint: "elsewhere" };
  return { endpoint: env.NODE_ENV === "production" && !env.METRICS_TOKEN ? "closed" : "served" };
}

/**
 * The configuration of an environment, defaults filled in (docs/configuration.md lists every variable). Throws,
 * naming the variable, when a value is malformed (a port that is not one, a limit that is not a positive integer, a
 * short AUTH_SECRET, RATE_LIMITS naming a budget the specs do not declare) or when production lacks AUTH_SECRET
 * and AUTH_JWKS_URL.
 *
 * @param env - the environment to read (default `process.env`)
 * @param budgets - the rate-limit budgets the specs declare (`definition.contract.rateLimits.budgets`): RATE_LIMITS
 *   may name only those; default unchecked
 */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  budgets?: Readonly<Record<string, Budget>>,
): Config {
  const port = portOf({ PORT: env.PORT ?? "3000" }, "PORT")!;
  return {
    host: env.HOST ?? "127.0.0.1",
    port,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    databasePoolMax: positive(env, "DATABASE_POOL_MAX", 10),
    logLevel: env.LOG_LEVEL ?? "info",
    bodyLimit: positive(env, "BODY_LIMIT", 1024 * 1024),
    responseValidation: onOff(env, "RESPONSE_VALIDATION", env.NODE_ENV !== "production"),
    auth: { ...resolveSecret(env), metricsToken: env.METRICS_TOKEN || undefined },
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    jobs: { leaseMs: positive(env, "JOB_LEASE_MS", 30_000), pollMs: positive(env, "JOB_POLL_MS", 500) },
    events: {
      retentionMs: positive(env, "EVENT_RETENTION_MS", 24 * 3600_000),
      pollMs: positive(env, "EVENT_POLL_MS", 1000),
    },
    webhooks: {
      ...(env.WEBHOOK_SCHEDULE_MS ? { scheduleMs: schedule(env.WEBHOOK_SCHEDULE_MS) } : {}),
      leaseMs: positive(env, "WEBHOOK_LEASE_MS", 30_000),
      pollMs: positive(env, "WEBHOOK_POLL_MS", 1000),
      timeoutMs: positive(env, "WEBHOOK_TIMEOUT_MS", 10_000),
      attemptRetentionMs: positive(env, "WEBHOOK_ATTEMPT_RETENTION_MS", 7 * 24 * 3600_000),
      attemptsPerEndpoint: positive(env, "WEBHOOK_ATTEMPTS_PER_ENDPOINT", 1000),
      policy: {
        allowHttp: onOff(env, "WEBHOOK_ALLOW_HTTP", false),
        allowPrivate: onOff(env, "WEBHOOK_ALLOW_PRIVATE", false),
      },
    },
    graphql: {
      introspection: introspection(env),
      maxDepth: positive(env, "GRAPHQL_MAX_DEPTH", 10),
      maxCost: positive(env, "GRAPHQL_MAX_COST", 5000),
      maxAliases: positive(env, "GRAPHQL_MAX_ALIASES", 30),
      maxDocumentBytes: positive(env, "GRAPHQL_MAX_DOCUMENT_BYTES", 64 * 1024),
      maxVariablesBytes: positive(env, "GRAPHQL_MAX_VARIABLES_BYTES", 64 * 1024),
      maxTokens: positive(env, "GRAPHQL_MAX_TOKENS", 1000),
      maxDirectives: positive(env, "GRAPHQL_MAX_DIRECTIVES", 50),
      validationTimeoutMs: positive(env, "GRAPHQL_VALIDATION_TIMEOUT_MS", 1000),
      persistedOnly: env.GRAPHQL_PERSISTED_ONLY === "true",
    },
    database: {
      connectTimeoutMs: positive(env, "DATABASE_CONNECT_TIMEOUT_MS", 5_000),
      pingMs: positive(env, "DATABASE_PING_MS", 250),
      pingTimeoutMs: positive(env, "DATABASE_PING_TIMEOUT_MS", 500),
    },
    server: serverLimits(env),
    shutdownGraceMs: positive(env, "SHUTDOWN_GRACE_MS", 10_000),
    tracing: tracingFromEnv(env),
    rateLimits: rateLimitConfig(env, budgets),
    graphiql: onOff(env, "GRAPHIQL", env.NODE_ENV !== "production"),
    docs: onOff(env, "DOCS", true),
    metrics: metricsConfig(env, port),
    connections: {
      wsConnectionsPerAddress: positive(
        env,
        "WS_MAX_CONNECTIONS_PER_ADDRESS",
        DEFAULT_CONNECTION_LIMITS.wsConnectionsPerAddress,
      ),
      subscriptionsPerConnection: positive(
        env,
        "WS_MAX_SUBSCRIPTIONS_PER_CONNECTION",
        DEFAULT_CONNECTION_LIMITS.subscriptionsPerConnection,
      ),
      sseStreamsPerAddress: positive(
        env,
        "SSE_MAX_STREAMS_PER_ADDRESS",
        DEFAULT_CONNECTION_LIMITS.sseStreamsPerAddress,
      ),
    },
  };
}

function rateLimitConfig(
  env: NodeJS.ProcessEnv,
  budgets: Readonly<Record<string, Budget>> | undefined,
): RateLimitConfig {
  const factor = Number(env.RATE_LIMIT_FACTOR ?? 1);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new Error(`RATE_LIMIT_FACTOR must be a positive number, got "${env.RATE_LIMIT_FACTOR}"`);
  const overrides = parseBudgets(env.RATE_LIMITS);
  const unknown = budgets ? Object.keys(overrides).filter((name) => !(name in budgets)) : [];
  if (unknown.length)
    throw new Error(
      `RATE_LIMITS names ${unknown.join(", ")}, which the specs do not declare; they declare ${Object.keys(budgets ?? {}).join(", ")}`,
    );
  return { factor, overrides, syncMs: positive(env, "RATE_LIMIT_SYNC_MS", 50) };
}

function serverLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const d = DEFAULT_SERVER_LIMITS;
  const limits = {
    headersTimeoutMs: positive(env, "HEADERS_TIMEOUT_MS", d.headersTimeoutMs),
    requestTimeoutMs: positive(env, "REQUEST_TIMEOUT_MS", d.requestTimeoutMs),
    keepAliveTimeoutMs: positive(env, "KEEP_ALIVE_TIMEOUT_MS", d.keepAliveTimeoutMs),
    maxHeaderBytes: positive(env, "MAX_HEADER_BYTES", d.maxHeaderBytes),
    maxUrlLength: positive(env, "MAX_URL_LENGTH", d.maxUrlLength),
  };
  // Node refuses a server whose headers may take longer than the whole request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(
      `HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`,
    );
  }
  return limits;
}

// Configuration from the environment, read once at start. Every knob is documented in the README.
import { resolveSecret, type AuthConfig } from "./auth/secret.js";
import { DEFAULT_DATABASE_URL } from "./store/database.js";
import { tracingFromEnv, type TracingConfig } from "./telemetry/config.js";

export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  /** PostgreSQL: most pooled connections per instance (DATABASE_POOL_MAX) */
  databasePoolMax: number;
  logLevel: string;
  bodyLimit: number;
  /** check REST handler responses against openapi.yaml (RESPONSE_VALIDATION=on|off; off by default in production) */
  responseValidation: boolean;
  jobs: { leaseMs: number; pollMs: number };
  corsOrigins: string[];
  auth: AuthConfig & { metricsToken?: string };
  graphql: GraphqlConfig;
  /** OpenTelemetry: set when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, …) */
  tracing?: TracingConfig;
}

/** GraphQL knobs (GRAPHQL_*): introspection and the limits checked before execution. */
export interface GraphqlConfig {
  introspection: boolean;
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  /** GRAPHQL_PERSISTED_ONLY: run only the documents of the client preset's manifest (a safelist) */
  persistedOnly: boolean;
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

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    host: env.HOST ?? "127.0.0.1",
    port,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    databasePoolMax: positive(env, "DATABASE_POOL_MAX", 10),
    logLevel: env.LOG_LEVEL ?? "info",
    bodyLimit: positive(env, "BODY_LIMIT", 1024 * 1024),
    responseValidation: onOff(env, "RESPONSE_VALIDATION", env.NODE_ENV !== "production"),
    auth: { ...resolveSecret(env), metricsToken: env.METRICS_TOKEN || undefined },
    corsOrigins: (env.CORS_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean),
    jobs: { leaseMs: positive(env, "JOB_LEASE_MS", 30_000), pollMs: positive(env, "JOB_POLL_MS", 500) },
    graphql: {
      introspection: env.GRAPHQL_INTROSPECTION !== "false",
      maxDepth: positive(env, "GRAPHQL_MAX_DEPTH", 10),
      maxCost: positive(env, "GRAPHQL_MAX_COST", 5000),
      maxAliases: positive(env, "GRAPHQL_MAX_ALIASES", 30),
      persistedOnly: env.GRAPHQL_PERSISTED_ONLY === "true",
    },
    tracing: tracingFromEnv(env),
  };
}

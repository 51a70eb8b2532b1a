// Configuration from the environment, read once at start. Every knob is documented in the README.
import { DEFAULT_DATABASE_URL } from "./store/database.js";

export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  logLevel: string;
  bodyLimit: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const bodyLimit = Number(env.BODY_LIMIT ?? 1024 * 1024);
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1) throw new Error(`BODY_LIMIT must be a positive number of bytes, got "${env.BODY_LIMIT}"`);
  return {
    host: env.HOST ?? "127.0.0.1",
    port,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    logLevel: env.LOG_LEVEL ?? "info",
    bodyLimit,
  };
}

// Start-up steps every server process shares (`npm start`, `npm run mock`).
import type { Logger } from "pino";
import { allScopes } from "../auth/secret.js";
import { signToken } from "../auth/tokens.js";
import { configFromEnv, type Config } from "../config.js";
import { PeerNotInstalledError } from "../peers.js";
import { loadPg } from "../store/pg-driver.js";
import { loadTracing } from "../telemetry/load.js";

/** The configuration from the environment; a mistake in it is the operator's to fix: say what, exit 1, no stack. */
export function configOrExit(budgets?: Parameters<typeof configFromEnv>[1]): Config {
  try {
    return configFromEnv(process.env, budgets);
  } catch (error) {
    console.error(`twinspec: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** `load()`, or — an optional peer it needs is not installed — the line that installs it, and exit 1, no stack. */
async function peerOrExit<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!(error instanceof PeerNotInstalledError)) throw error;
    console.error(`twinspec: ${error.message}`);
    process.exit(1);
  }
}

/** The tracing code when tracing is configured (nothing is loaded otherwise), its OpenTelemetry SDK an optional peer. */
export const tracingOrExit = async (config: Config) => (config.tracing ? peerOrExit(() => loadTracing()) : undefined);

/** PostgreSQL's driver, when DATABASE_URL names PostgreSQL, an optional peer too. */
export async function pgOrExit(): Promise<void> {
  await peerOrExit(() => loadPg());
}

/** No AUTH_SECRET outside production: a throwaway secret, and a ready admin token so the server is usable at once. */
export async function logDevToken(
  config: Config,
  logger: Logger,
  scopes: Readonly<Record<string, string>>,
): Promise<void> {
  if (!config.auth.generated || !config.auth.secret) return;
  const { issuer, audience } = config.auth;
  const token = await signToken(config.auth.secret, {
    sub: "dev-admin",
    scope: allScopes(scopes),
    ttlSeconds: 12 * 3600,
    issuer,
    audience: audience?.[0],
  });
  logger.warn(
    { token },
    "AUTH_SECRET is not set: using a random secret for this run; admin token (12 h) for `Authorization: Bearer …`",
  );
}

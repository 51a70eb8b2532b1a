// Where the keys for bearer tokens come from: AUTH_SECRET (HS256) and, for an identity provider, AUTH_JWKS_URL
// (with AUTH_ISSUER / AUTH_AUDIENCE). Outside production a random secret is made when AUTH_SECRET is unset (and an
// admin token logged) so `npm start` works with no setup; production refuses to start with neither.
import { randomBytes } from "node:crypto";

/** Every scope the specs declare (x-scopes), space-separated: what the development admin token carries. */
export const allScopes = (scopes: Readonly<Record<string, string>>) => Object.keys(scopes).join(" ");

class MissingSecretError extends Error {
  constructor() {
    super(
      "AUTH_SECRET is not set. In production the server needs a signing secret (at least 32 characters) or an identity provider's keys: set AUTH_SECRET or AUTH_JWKS_URL and restart.",
    );
  }
}

export interface AuthConfig {
  /** HS256 secret; unset in production when only the identity provider's tokens are accepted */
  secret?: string;
  /** the secret was made up for this run (development) */
  generated: boolean;
  jwksUrl?: string;
  issuer?: string;
  audience?: string[];
}

export function resolveSecret(env: NodeJS.ProcessEnv): AuthConfig {
  const identity = identityFromEnv(env);
  const given = env.AUTH_SECRET;
  if (given) {
    if (given.length < 32) throw new Error("AUTH_SECRET must be at least 32 characters (HS256 needs a 256-bit key)");
    return { secret: given, generated: false, ...identity };
  }
  if (env.NODE_ENV === "production") {
    if (identity.jwksUrl) return { generated: false, ...identity };
    throw new MissingSecretError();
  }
  return { secret: randomBytes(32).toString("base64url"), generated: true, ...identity };
}

function identityFromEnv(env: NodeJS.ProcessEnv): Omit<AuthConfig, "secret" | "generated"> {
  const jwksUrl = env.AUTH_JWKS_URL?.trim() || undefined;
  if (jwksUrl) {
    let url: URL | undefined;
    try {
      url = new URL(jwksUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
      throw new Error(`AUTH_JWKS_URL must be an http(s) URL, got "${jwksUrl}"`);
  }
  const audience = (env.AUTH_AUDIENCE ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  return { jwksUrl, issuer: env.AUTH_ISSUER?.trim() || undefined, audience: audience.length ? audience : undefined };
}

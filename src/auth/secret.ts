// Where the signing secret comes from: AUTH_SECRET; outside production a random one is made (and an admin token
// logged) so `npm start` works with no setup; production refuses to start without one.
import { randomBytes } from "node:crypto";
import { scopes } from "../../generated/contract.js";

/** Every scope the specs declare (x-scopes), space-separated: what the development admin token carries. */
export const ALL_SCOPES = Object.keys(scopes).join(" ");

export class MissingSecretError extends Error {
  constructor() {
    super("AUTH_SECRET is not set. In production the server needs a signing secret (at least 32 characters): set AUTH_SECRET and restart.");
  }
}

export function resolveSecret(env: NodeJS.ProcessEnv): { secret: string; generated: boolean } {
  const given = env.AUTH_SECRET;
  if (given) {
    if (given.length < 32) throw new Error("AUTH_SECRET must be at least 32 characters (HS256 needs a 256-bit key)");
    return { secret: given, generated: false };
  }
  if (env.NODE_ENV === "production") throw new MissingSecretError();
  return { secret: randomBytes(32).toString("base64url"), generated: true };
}

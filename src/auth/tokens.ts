// Bearer JWTs: HS256 with AUTH_SECRET, claims sub, scope (space-separated), exp. Verified tokens are kept in a
// bounded LRU until they expire, so verification is not on every request's path.
import { errors, jwtVerify, SignJWT } from "jose";
import type { Principal } from "./principal.js";

export interface TokenClaims {
  sub: string;
  scope: string;
  /** lifetime in seconds */
  ttlSeconds: number;
  /** not valid before this many seconds from now (tests) */
  notBeforeSeconds?: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signToken(secret: string, claims: TokenClaims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ scope: claims.scope }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(claims.sub).setIssuedAt(now).setExpirationTime(now + claims.ttlSeconds);
  if (claims.notBeforeSeconds) jwt.setNotBefore(now + claims.notBeforeSeconds);
  return jwt.sign(key(secret));
}

/** Why a token was refused, in words a client developer can act on. */
export class InvalidTokenError extends Error {}

export class TokenVerifier {
  private readonly cache = new Map<string, Principal>();

  constructor(
    private readonly secret: string,
    private readonly maxCached = 10_000,
  ) {}

  async verify(token: string): Promise<Principal> {
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.expiresAt * 1000 > Date.now()) {
        this.cache.delete(token); // re-insert: most recently used last
        this.cache.set(token, cached);
        return cached;
      }
      this.cache.delete(token);
    }
    const principal = await this.verifyUncached(token);
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, principal);
    return principal;
  }

  private async verifyUncached(token: string): Promise<Principal> {
    try {
      // Only HS256: "none" and every other algorithm are refused before the signature is looked at.
      const { payload } = await jwtVerify(token, key(this.secret), { algorithms: ["HS256"], requiredClaims: ["sub", "exp"] });
      const scope = typeof payload.scope === "string" ? payload.scope : "";
      return { subject: payload.sub!, scopes: new Set(scope.split(" ").filter(Boolean)), expiresAt: payload.exp! };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new InvalidTokenError("the token has expired");
      if (error instanceof errors.JWTClaimValidationFailed) throw new InvalidTokenError(`the token's claims are not acceptable: ${error.message}`);
      if (error instanceof errors.JOSEAlgNotAllowed) throw new InvalidTokenError("the token must be signed with HS256");
      if (error instanceof errors.JWSSignatureVerificationFailed) throw new InvalidTokenError("the token's signature does not verify");
      throw new InvalidTokenError("the token is malformed");
    }
  }
}

/** The token of an `Authorization: Bearer …` header; undefined when there is none, null when the header is not Bearer. */
export function bearerToken(header: string | undefined): string | null | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/** "90", "90s", "15m", "1h", "7d" → seconds */
export function parseTtl(text: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m) throw new Error(`--ttl must look like 90s, 15m, 1h or 7d, got "${text}"`);
  return Number(m[1]) * { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "" | "s" | "m" | "h" | "d"];
}


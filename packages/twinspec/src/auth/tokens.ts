// Bearer JWTs: HS256 with AUTH_SECRET, and RS256 / ES256 / EdDSA from an identity provider whose keys come from its
// JWKS (AUTH_JWKS_URL); AUTH_ISSUER and AUTH_AUDIENCE are checked when set. Claims sub and exp are required; scopes
// come from `scope` (space-separated) and `scp` (an array, or a space-separated string). Verified tokens are kept
// in a bounded LRU until they expire, so verification is not on every request's path.
import {
  decodeProtectedHeader,
  errors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from "jose";
import { KeysUnavailableError, remoteKeys, type JwksOptions } from "./jwks.js";
import type { Principal } from "./principal.js";

/** What `signToken` puts in a token. */
export interface TokenClaims {
  /** `sub`: the owner id it acts for, or an admin's name */
  sub: string;
  /** `scope`: its scopes, space-separated ("books:read loans:write"); "admin" acts for every owner */
  scope: string;
  /** lifetime in seconds */
  ttlSeconds: number;
  /** not valid before this many seconds from now (tests) */
  notBeforeSeconds?: number;
  /** `iss`, when the server checks one (AUTH_ISSUER) */
  issuer?: string;
  /** `aud`, when the server checks one (AUTH_AUDIENCE) */
  audience?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * A bearer token (JWT, HS256) signed with `secret`: what `twinspec token` prints, and tests sign with. It carries
 * `sub`, `scope`, `iat`, `exp`, and `nbf`, `iss` and `aud` when the claims give them.
 *
 * @param secret - the HS256 secret the server verifies with (AUTH_SECRET)
 * @param claims - subject, scopes, lifetime and the optional claims (`TokenClaims`)
 */
export async function signToken(secret: string, claims: TokenClaims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ scope: claims.scope })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + claims.ttlSeconds);
  if (claims.notBeforeSeconds) jwt.setNotBefore(now + claims.notBeforeSeconds);
  if (claims.issuer) jwt.setIssuer(claims.issuer);
  if (claims.audience) jwt.setAudience(claims.audience);
  return jwt.sign(key(secret));
}

/** Why a token was refused, in words a client developer can act on. */
export class InvalidTokenError extends Error {}

/** Algorithms of the identity provider's keys ("Ed25519" is the fully-specified name of EdDSA over Ed25519). */
const JWKS_ALGORITHMS = ["RS256", "ES256", "EdDSA", "Ed25519"];

/** What a TokenVerifier accepts: HS256 with `secret`, the identity provider's keys from `jwksUrl`, or both. */
export interface VerifierOptions {
  /** HS256 shared secret (AUTH_SECRET); without it HS256 tokens are refused */
  secret?: string;
  /** the identity provider's JWKS (AUTH_JWKS_URL); without it only HS256 tokens are accepted */
  jwksUrl?: string;
  /** caching and rate limits of the JWKS fetches */
  jwks?: JwksOptions;
  /** required `iss` (AUTH_ISSUER) */
  issuer?: string;
  /** accepted `aud` values (AUTH_AUDIENCE); the token must name one */
  audience?: string[];
  /** verified tokens kept (default 10 000) */
  maxCached?: number;
}

/**
 * Verifies bearer tokens: their signature (HS256 with the secret, RS256 / ES256 / EdDSA with the identity provider's
 * keys; the algorithm picks which), `exp` and `sub` (required), and `iss` and `aud` when configured. Scopes come from
 * `scope` and `scp`. Verified tokens are cached until they expire. `buildApp` makes the server's.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, Principal>();
  private readonly maxCached: number;
  private readonly secret?: Uint8Array;
  private readonly keys?: JWTVerifyGetKey;
  private readonly claims: JWTVerifyOptions;
  private readonly accepted: string[];

  /** @param options - the secret and/or the identity provider's JWKS, and the claims checked (`VerifierOptions`) */
  constructor(private readonly options: VerifierOptions) {
    this.maxCached = options.maxCached ?? 10_000;
    if (options.secret) this.secret = key(options.secret);
    if (options.jwksUrl) this.keys = remoteKeys(options.jwksUrl, options.jwks);
    this.claims = {
      requiredClaims: ["sub", "exp"],
      issuer: options.issuer,
      audience: options.audience?.length ? options.audience : undefined,
    };
    this.accepted = [...(this.secret ? ["HS256"] : []), ...(this.keys ? ["RS256", "ES256", "EdDSA"] : [])];
  }

  /**
   * The principal of a token verified before and not expired since, without waiting; else undefined.
   *
   * @param token - the token, as the Authorization header carries it after "Bearer "
   */
  cached(token: string): Principal | undefined {
    const cached = this.cache.get(token);
    if (!cached) return undefined;
    if (cached.expiresAt * 1000 <= Date.now()) {
      this.cache.delete(token);
      return undefined;
    }
    // Re-inserted (most recently used last) only once eviction is near: a Map delete + set on every request costs.
    if (this.cache.size >= this.maxCached / 2) {
      this.cache.delete(token);
      this.cache.set(token, cached);
    }
    return cached;
  }

  /**
   * The principal a token stands for; rejects with an error saying why a token is refused (expired, bad signature,
   * wrong issuer or audience, keys unavailable, …), in words a client developer can act on.
   *
   * @param token - the token, as the Authorization header carries it after "Bearer "
   */
  async verify(token: string): Promise<Principal> {
    const cached = this.cached(token);
    if (cached) return cached;
    const principal = await this.verifyUncached(token);
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, principal);
    return principal;
  }

  private async verifyUncached(token: string): Promise<Principal> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new InvalidTokenError("the token is malformed");
    }
    try {
      // The algorithm picks the key: HS256 only ever with the secret, the provider's algorithms only with its keys,
      // so neither kind of key can be used to forge the other kind of token. "none" and the rest are refused.
      let payload: JWTPayload;
      if (alg === "HS256" && this.secret)
        payload = (await jwtVerify(token, this.secret, { ...this.claims, algorithms: ["HS256"] })).payload;
      else if (typeof alg === "string" && JWKS_ALGORITHMS.includes(alg) && this.keys)
        payload = (await jwtVerify(token, this.keys, { ...this.claims, algorithms: JWKS_ALGORITHMS })).payload;
      else throw new errors.JOSEAlgNotAllowed("algorithm not accepted");
      return { subject: payload.sub!, scopes: scopesOf(payload), expiresAt: payload.exp! };
    } catch (error) {
      throw this.explain(error);
    }
  }

  private explain(error: unknown): InvalidTokenError {
    if (error instanceof errors.JWTExpired) return new InvalidTokenError("the token has expired");
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === "aud" && this.options.audience)
        return new InvalidTokenError(
          `the token is not meant for this service: its audience (aud) must be ${this.options.audience.join(" or ")}`,
        );
      if (error.claim === "iss" && this.options.issuer)
        return new InvalidTokenError(`the token's issuer (iss) must be ${this.options.issuer}`);
      return new InvalidTokenError(`the token's claims are not acceptable: ${error.message}`);
    }
    if (error instanceof errors.JOSEAlgNotAllowed)
      return new InvalidTokenError(
        `the token must be signed with ${this.accepted.join(", ").replace(/, ([^,]*)$/, " or $1")}`,
      );
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return new InvalidTokenError("the token's signature does not verify");
    if (error instanceof errors.JWKSNoMatchingKey)
      return new InvalidTokenError("no key of the identity provider (AUTH_JWKS_URL) matches the token's kid and alg");
    if (error instanceof errors.JWKSMultipleMatchingKeys)
      return new InvalidTokenError("the token names no kid and several keys of the identity provider match");
    if (error instanceof KeysUnavailableError)
      return new InvalidTokenError("the identity provider's keys could not be fetched; try again shortly");
    return new InvalidTokenError("the token is malformed");
  }
}

/** `scope` (space-separated, OAuth 2.0) and `scp` (an array, as Okta and others send, or a string, as Entra ID does). */
function scopesOf(payload: JWTPayload): Set<string> {
  const words = (value: unknown): string[] =>
    typeof value === "string"
      ? value.split(" ")
      : Array.isArray(value)
        ? value.filter((v): v is string => typeof v === "string")
        : [];
  return new Set([...words(payload.scope), ...words(payload.scp)].filter(Boolean));
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

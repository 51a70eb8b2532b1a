// An identity provider's signing keys, fetched from its JWKS URL by jose's createRemoteJWKSet: cached (10 min by
// default), fetched again when a token names a key id the cache lacks — at most once per cooldown (30 s), so tokens
// with made-up key ids cannot make us hammer the provider. A failed fetch (provider down, timeout, not 200) holds
// further fetches back for the same cooldown, up to 5 s, for the same reason.
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import type { Logger } from "pino";

export interface JwksOptions {
  /** after a fetch, how long before a token with an unknown key id may trigger the next (ms, default 30 000) */
  cooldownMs?: number;
  /** how long fetched keys are used before they are fetched again (ms, default 600 000) */
  cacheMaxAgeMs?: number;
  /** how long one fetch may take (ms, default 5000) */
  timeoutMs?: number;
  log?: Logger;
}

export class KeysUnavailableError extends Error {}

export function remoteKeys(url: string, options: JwksOptions = {}): JWTVerifyGetKey {
  const cooldownMs = options.cooldownMs ?? 30_000;
  const retryAfterFailureMs = Math.min(cooldownMs, 5_000);
  let failedAt = -Infinity;
  const failed = (reason: string) => {
    failedAt = Date.now();
    options.log?.warn({ jwks: url, reason }, "could not fetch the identity provider's keys (AUTH_JWKS_URL)");
    return new KeysUnavailableError(reason);
  };
  return createRemoteJWKSet(new URL(url), {
    cooldownDuration: cooldownMs,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: options.timeoutMs ?? 5_000,
    [customFetch]: async (resource, init) => {
      if (Date.now() - failedAt < retryAfterFailureMs)
        throw new KeysUnavailableError("the last fetch failed moments ago");
      let response: Response;
      try {
        response = await fetch(resource, init);
      } catch (error) {
        throw failed(
          (error as Error).name === "AbortError" || (error as Error).name === "TimeoutError"
            ? "timed out"
            : (error as Error).message,
        );
      }
      if (response.status !== 200) throw failed(`answered ${response.status}`);
      // Read here, so a body that is not a key set counts as a failed fetch too.
      const text = await response.text().catch(() => "");
      let keys: unknown;
      try {
        keys = (JSON.parse(text) as { keys?: unknown }).keys;
      } catch {
        keys = undefined;
      }
      if (!Array.isArray(keys)) throw failed("answered something that is not a JSON Web Key Set");
      return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
    },
  });
}

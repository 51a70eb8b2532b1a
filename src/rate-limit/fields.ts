// What REST and GraphQL share about rate limits: who spends (a verified token's subject, else the client's address),
// and the fields that tell the caller where it stands (draft-ietf-httpapi-ratelimit-headers-06).
import type { ServerResponse } from "node:http";
import type { Principal } from "../http/rest-runtime.js";
import type { Decision } from "./limiter.js";

/** `address` is asked only when there is no principal (Koa's ctx.ip builds the proxy list on every read). */
export const callerOf = (principal: Principal | null | undefined, address: () => string | undefined) => (principal ? `s:${principal.subject}` : `a:${address() ?? ""}`);

/** The same fields, set on a response. */
export function setRateLimitHeaders(res: ServerResponse, d: Decision): void {
  res.setHeader("RateLimit-Limit", String(d.limit));
  res.setHeader("RateLimit-Remaining", String(d.remaining));
  res.setHeader("RateLimit-Reset", String(d.reset));
  res.setHeader("RateLimit-Policy", d.policy);
}

export function rateLimitHeaders(d: Decision): Record<string, string> {
  return { "RateLimit-Limit": String(d.limit), "RateLimit-Remaining": String(d.remaining), "RateLimit-Reset": String(d.reset), "RateLimit-Policy": d.policy };
}

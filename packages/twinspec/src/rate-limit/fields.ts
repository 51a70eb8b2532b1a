// What REST and GraphQL share about rate limits: who spends (a verified token's subject, else the client's address),
// and the fields that tell the caller where it stands: draft-ietf-httpapi-ratelimit-headers-10, two Structured Fields
// (RFC 9651) naming the budget as the policy — `RateLimit-Policy: "default";q=600;w=60` (fixed per budget, made once
// in Budget) and `RateLimit: "default";r=599;t=12`.
import type { ServerResponse } from "node:http";
import type { Principal } from "../runtime/index.js";

/** What the limiter decided for one request: the RateLimit fields are written from it. */
export interface Decision {
  allowed: boolean;
  /** what the request would spend */
  cost: number;
  limit: number;
  remaining: number;
  /** seconds until the window ends (RateLimit's `t`; Retry-After when refused) */
  reset: number;
  /** the RateLimit-Policy field: `"<budget>";q=<limit>;w=<window>` */
  policy: string;
  /** the budget's name as an sf-string, `"<budget>"`: names the policy in the RateLimit field */
  policyName: string;
}

/** `address` is asked only when there is no principal (Koa's ctx.ip builds the proxy list on every read). */
export const callerOf = (principal: Principal | null | undefined, address: () => string | undefined) =>
  principal ? `s:${principal.subject}` : `a:${address() ?? ""}`;

/** Whether a budget's name can name a policy: an sf-string (RFC 9651 §4.1.6) holds printable ASCII only. */
export const isPolicyName = (name: string) => /^[\x20-\x7e]*$/.test(name);

/** `name` as an sf-string: `"` and `\` escaped. */
export function sfString(name: string): string {
  if (!isPolicyName(name))
    throw new Error(`rate-limit budget "${name}": a policy name must be printable ASCII (a Structured Field String)`);
  return `"${name.replace(/[\\"]/g, "\\$&")}"`;
}

/** The RateLimit field's value: the budget's policy item with `r` (units left) and `t` (seconds until the window ends). */
const rateLimit = (d: Decision) => `${d.policyName};r=${d.remaining};t=${d.reset}`;

/** The same fields, set on a response (the hot path: no object of its own). */
export function setRateLimitHeaders(res: ServerResponse, d: Decision): void {
  res.setHeader("RateLimit-Policy", d.policy);
  res.setHeader("RateLimit", rateLimit(d));
}

export function rateLimitHeaders(d: Decision): Record<string, string> {
  return { "RateLimit-Policy": d.policy, RateLimit: rateLimit(d) };
}

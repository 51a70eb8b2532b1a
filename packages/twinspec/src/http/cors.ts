// CORS for browser clients on other origins: only the origins in CORS_ORIGINS get CORS headers; preflights
// are answered with the methods and headers the API uses; the headers clients need to read are exposed.
import cors from "@koa/cors";
import type { Context, Middleware } from "koa";

const EXPOSED_HEADERS = [
  ...[
    "Location",
    "ETag",
    "Last-Modified",
    "Link",
    "X-Request-Id",
    "Allow",
    "WWW-Authenticate",
    "Idempotent-Replayed",
    "Retry-After",
  ],
  ...["RateLimit-Policy", "RateLimit"],
];
const ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Accept",
  "If-Match",
  "If-None-Match",
  "If-Modified-Since",
  "If-Unmodified-Since",
  "Idempotency-Key",
  "Prefer",
  "X-Request-Id",
];

/** `origins`: exact origins, or ["*"] for any origin (then without credentials, as the Fetch standard requires). */
export function corsFor(origins: string[]): Middleware {
  const any = origins.includes("*");
  return cors({
    origin: (ctx: Context) => {
      const origin = ctx.get("Origin");
      if (any) return "*";
      return origins.includes(origin) ? origin : "";
    },
    credentials: !any,
    exposeHeaders: EXPOSED_HEADERS,
    allowHeaders: ALLOWED_HEADERS,
    allowMethods: ["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE", "OPTIONS"],
    maxAge: 600,
  });
}

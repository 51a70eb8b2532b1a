// Conditional GET/HEAD and cache headers: a 200 whose ETag / Last-Modified matches If-None-Match / If-Modified-Since becomes 304.
// Also the validators' parsing for writes (If-Match, If-Unmodified-Since → domain Preconditions).
import type { Middleware } from "koa";
import type { Preconditions } from "../domain/preconditions.js";

export function conditionalGet(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return;
    if (ctx.status === 200 && notModified(ctx.headers, ctx.response.headers)) ctx.status = 304;
    if (ctx.status === 200 || ctx.status === 304) {
      // Per-user data: caches may keep it but must revalidate (cheap with the ETag), and never share it.
      if (!ctx.response.get("Cache-Control")) ctx.set("Cache-Control", "private, no-cache");
      ctx.vary("Accept, Accept-Encoding, Authorization");
    }
  };
}

/**
 * RFC 9110 §13.2.2 as an origin server evaluates it: If-None-Match (weak comparison) wins over If-Modified-Since.
 * Not Koa's ctx.fresh, which answers "stale" whenever the request says Cache-Control: no-cache, as fetch() does
 * for every conditional request.
 */
export function notModified(request: Record<string, string | string[] | undefined>, response: Record<string, unknown>): boolean {
  const etag = response["etag"];
  const ifNoneMatch = request["if-none-match"];
  if (typeof ifNoneMatch === "string") {
    if (typeof etag !== "string") return false;
    const weak = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => weak(tag) === weak(etag));
  }
  const since = typeof request["if-modified-since"] === "string" ? Date.parse(request["if-modified-since"]) : NaN;
  const modified = typeof response["last-modified"] === "string" ? Date.parse(response["last-modified"]) : NaN;
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

export const etagOf = (version: number) => `"v${version}"`;

/** RFC 7240 `Prefer: return=minimal`: the client wants 204 and the new ETag instead of the representation. */
export const prefersMinimal = (headers: { Prefer?: string }) => /\breturn=minimal\b/.test(headers.Prefer ?? "");

export const resourceHeaders = (r: { version: number; updatedAt: string }) => ({
  ETag: etagOf(r.version),
  "Last-Modified": new Date(r.updatedAt).toUTCString(),
});

/** If-Match lists ETags ("*" = any current version); tags we never issued can match nothing. */
export function preconditions(headers: { "If-Match"?: string; "If-Unmodified-Since"?: string }): Preconditions | undefined {
  const pre: Preconditions = {};
  const ifMatch = headers["If-Match"]?.trim();
  if (ifMatch && ifMatch !== "*") {
    pre.versions = ifMatch.split(",").flatMap((tag) => {
      const m = /^"v(\d+)"$/.exec(tag.trim());
      return m ? [Number(m[1])] : [];
    });
  }
  const since = headers["If-Unmodified-Since"] ? Date.parse(headers["If-Unmodified-Since"]) : NaN;
  if (!Number.isNaN(since)) pre.unmodifiedSince = since;
  return pre.versions || pre.unmodifiedSince !== undefined ? pre : undefined;
}

// This app's validators: a resource's ETag is its row version ("v3"), its Last-Modified its updatedAt. The
// conditional headers the runtime parsed become the domain's preconditions (versions) here, and every cacheable
// read gets its cache headers.
import type { Context } from "koa";
import type { Preconditions } from "../domain/preconditions.js";
import { CONDITIONAL_HEADERS, evaluateRead, parseConditions, type Conditions } from "../runtime/preconditions.js";

/**
 * A resource's ETag: its row version, quoted (`"v3"`), as every read and write of it answers and If-Match compares.
 *
 * @param version - the row's version (1 when created, one more at each change)
 */
export const etagOf = (version: number) => `"v${version}"`;

/** Tags we never issued (and weak ones, which If-Match never matches) stand for no version. */
const versions = (tags: string[]) => tags.flatMap((tag) => (/^"v(\d+)"$/.test(tag) ? [Number(tag.slice(2, -1))] : []));

/** If-Match, If-None-Match and If-Unmodified-Since of a write, as versions the domain compares in its transaction. */
export function preconditionsOf(conditions: Conditions | undefined): Preconditions | undefined {
  if (!conditions) return undefined;
  const pre: Preconditions = {};
  if (conditions.ifMatch !== undefined) pre.match = conditions.ifMatch === "*" ? "*" : versions(conditions.ifMatch);
  if (conditions.ifNoneMatch !== undefined)
    pre.noneMatch =
      conditions.ifNoneMatch === "*" ? "*" : versions(conditions.ifNoneMatch.map((t) => t.replace(/^W\//, "")));
  if (conditions.ifUnmodifiedSince !== undefined) pre.unmodifiedSince = conditions.ifUnmodifiedSince;
  return Object.keys(pre).length ? pre : undefined;
}

/**
 * RFC 7240 `Prefer: return=minimal`: the client wants 204 and the new ETag instead of the representation.
 *
 * @param headers - the request's headers as a handler receives them (`req.headers`); reads `Prefer`
 */
export const prefersMinimal = (headers: { Prefer?: string }) => /\breturn=minimal\b/.test(headers.Prefer ?? "");

/**
 * The cache validators of a resource's answer: `ETag` (its version) and `Last-Modified` (its updatedAt, as an HTTP
 * date). The REST runtime answers conditional GETs (304, 412) from them.
 *
 * @param r - the resource: its version and updatedAt (ISO-8601)
 */
export const resourceHeaders = (r: { version: number; updatedAt: string }) => ({
  ETag: etagOf(r.version),
  "Last-Modified": httpDateOf(r.updatedAt),
});

// Formatting an HTTP date costs more than the rest of a resource's headers; the same instants recur (every read
// of an unchanged resource), so the last ones formatted are kept.
const httpDates = new Map<string, string>();
function httpDateOf(iso: string): string {
  let date = httpDates.get(iso);
  if (date === undefined) {
    if (httpDates.size >= 4096) httpDates.clear();
    httpDates.set(iso, (date = new Date(iso).toUTCString()));
  }
  return date;
}

const ALL_CONDITIONS = new Set<string>(CONDITIONAL_HEADERS);

const VARY = "Accept, Accept-Encoding, Authorization";

/**
 * Per-user data: caches may keep a read but must revalidate it (cheap with the ETag), and never share it. Reads
 * outside the spec's operations (the served specs, docs assets) get conditional GETs here; the spec's own get them
 * from the REST runtime, for the headers each operation declares. Every answer varies by Accept-Encoding
 * (compression), and by Origin when CORS is on.
 */
export function cacheHeadersOf(ctx: Context, corsOn: boolean): void {
  const method = ctx.req.method;
  if (method === "GET" || method === "HEAD") {
    if (ctx.res.statusCode === 200 && !ctx.state.operationId) {
      const conditions = parseConditions((name) => ctx.get(name) || undefined, ALL_CONDITIONS);
      if (
        conditions &&
        evaluateRead(
          conditions,
          ctx.response.get("ETag") || undefined,
          ctx.response.get("Last-Modified") || undefined,
        ) === 304
      )
        ctx.status = 304;
    }
    const status = ctx.res.statusCode;
    if (status === 200 || status === 304) {
      if (!ctx.res.hasHeader("Cache-Control")) ctx.res.setHeader("Cache-Control", "private, no-cache");
      varyBy(ctx, corsOn ? `${VARY}, Origin` : VARY);
      return;
    }
  }
  varyBy(ctx, corsOn ? "Accept-Encoding, Origin" : "Accept-Encoding");
}

/** Vary, set outright when nothing set it yet (the common case), else merged as Koa's ctx.vary does. */
function varyBy(ctx: Context, fields: string) {
  if (ctx.res.hasHeader("Vary")) ctx.vary(fields);
  else ctx.res.setHeader("Vary", fields);
}

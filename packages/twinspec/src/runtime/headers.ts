// Request and response header access on the hot paths, straight on node's objects: Koa's ctx.get / ctx.set go
// through delegate getters, lower-case the name and re-check the value on every call (about a tenth of a point
// read's server CPU in the bench profile). Names here are given in lower case; values are strings.
import type { Context } from "koa";

/** A request header (`name` in lower case), or undefined when absent or empty. */
export function header(ctx: Context, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return (Array.isArray(value) ? value.join(", ") : value) || undefined;
}

/** Sets response headers (before anything is sent). */
export function setHeaders(ctx: Context, headers: Record<string, string>): void {
  const res = ctx.res;
  for (const name in headers) res.setHeader(name, headers[name]);
}

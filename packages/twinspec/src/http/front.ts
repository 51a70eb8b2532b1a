// The spec's operations and POST /graphql run on Koa's own context objects, but outside Koa's request handling:
// its handleRequest (on-finished listeners on every response and socket, the composed chain, respond) costs about as
// much CPU as a whole bare node:http request. The same middleware answers either way — the edge, then the REST runtime or GraphQL over HTTP — so
// every feature stays on; requests from browsers (Origin: CORS), traced requests and every other path take Koa's full
// chain.
import type { IncomingMessage, ServerResponse } from "node:http";
import Stream from "node:stream";
import type Koa from "koa";
import type { Context, Middleware } from "koa";

export interface FrontOptions {
  koa: Koa;
  /** what runs around every request here, outermost first (the edge, last) */
  outer: Middleware[];
  /** the middleware answering a request of this method and path here; undefined: Koa's full chain answers it */
  route: (method: string | undefined, path: string) => Middleware | undefined;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const EMPTY = new Set([204, 205, 304]);
const noop = async () => {};

export interface FrontDoor {
  listener: RequestListener;
  /** whether a request has come in (Koa's chain is composed then: middleware added later would miss it) */
  started(): boolean;
}

export function frontDoor({ koa, outer, route }: FrontOptions): FrontDoor {
  // Made at the first request: Koa composes its middleware when its callback is made, and more may be added until then.
  let full: ReturnType<Koa["callback"]> | undefined;
  let started = false;
  const listener: RequestListener = (req, res) => {
    started = true;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    const target = req.headers.origin === undefined && path.charCodeAt(0) === 47 /* "/" */ ? route(req.method, path) : undefined;
    if (!target) return void (full ??= koa.callback())(req, res);
    const ctx = koa.createContext(req, res);
    res.statusCode = 404;
    // As Koa's handleRequest: what fails, the chain or writing the answer, goes to ctx.onerror.
    run(ctx, outer, 0, target)
      .then(() => respond(ctx))
      .catch((error) => ctx.onerror(error));
  };
  return { listener, started: () => started };
}

function run(ctx: Context, outer: Middleware[], index: number, target: Middleware): Promise<unknown> {
  const middleware = outer[index];
  if (!middleware) return target(ctx, noop);
  return middleware(ctx, () => run(ctx, outer, index + 1, target)) as Promise<unknown>;
}

/** Koa's respond (koa/lib/application.js), for the bodies this server answers with. */
function respond(ctx: Context): void {
  const res = ctx.res;
  if (!ctx.writable) {
    res.end();
    return;
  }
  let body: unknown = ctx.response.body;
  const code = res.statusCode;
  if (EMPTY.has(code)) {
    ctx.body = null;
    res.end();
    return;
  }
  if (ctx.req.method === "HEAD") {
    if (!res.headersSent && !res.hasHeader("Content-Length")) {
      const { length } = ctx.response;
      if (Number.isInteger(length)) ctx.length = length;
    }
    res.end();
    return;
  }
  if (body === null || body === undefined) {
    if ((ctx.response as { _explicitNullBody?: boolean })._explicitNullBody) {
      ctx.response.remove("Content-Type");
      ctx.response.remove("Transfer-Encoding");
      ctx.length = 0;
      res.end();
      return;
    }
    body = ctx.message || String(code);
    if (!res.headersSent) {
      ctx.type = "text";
      ctx.length = Buffer.byteLength(body as string);
    }
    res.end(body);
    return;
  }
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  if (body instanceof Stream) {
    Stream.pipeline(body as Stream.Readable, res, (error) => {
      if (error && ctx.app.listenerCount("error")) ctx.onerror(error);
    });
    return;
  }
  const json = JSON.stringify(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(json);
  res.end(json);
}

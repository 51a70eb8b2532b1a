// The server's one request path: every request runs Koa's whole middleware stack (app.middleware, composed once at the
// first request by Koa's own `compose`), on Koa's own context objects. What this skips of Koa's callback() is its
// on-finished listeners on every response and socket; the common answers (a JSON value, text or bytes) are written
// here, and every other one — HEAD, empty statuses, null bodies, streams, Blob, ReadableStream, Response, an
// unwritable response — is handed to Koa's own handleRequest, so its respond decides them.
// test/server/listener.test.ts holds both paths to the same answers.
import type { IncomingMessage, ServerResponse } from "node:http";
import type Koa from "koa";
import type { Context, Middleware } from "koa";

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface KoaListener {
  listener: RequestListener;
  /** whether a request has come in: the stack is composed then, and middleware added later would miss it */
  started(): boolean;
}

const EMPTY = new Set([204, 205, 304]);

/** Bodies of this many characters or bytes and more are let go of once written (answered). */
const LARGE_BODY = 8192;

type Chain = (ctx: Context) => Promise<unknown>;
/** What Koa's callback() is made of (koa/lib/application.js), not in its type declarations. */
interface KoaParts {
  /** the `compose` option of Koa's constructor (koa-compose by default) */
  compose(middleware: Middleware[]): Chain;
  handleRequest(ctx: Context, chain: Chain): Promise<void>;
}

export function koaListener(koa: Koa): KoaListener {
  const parts = koa as unknown as KoaParts;
  let chain: Chain | undefined;
  const listener: RequestListener = (req, res) => {
    if (!chain) {
      chain = parts.compose(koa.middleware);
      // As callback(): errors ctx.onerror reports go to Koa's own handler unless the app listens itself.
      if (!koa.listenerCount("error")) koa.on("error", (error: Error) => koa.onerror(error));
    }
    const ctx = koa.createContext(req, res);
    const composed = chain;
    if (koa.ctxStorage) void koa.ctxStorage.run(ctx, () => handle(parts, ctx, composed));
    else void handle(parts, ctx, composed);
  };
  return { listener, started: () => chain !== undefined };
}

function handle(koa: KoaParts, ctx: Context, chain: Chain): Promise<void> {
  ctx.res.statusCode = 404;
  return chain(ctx)
    .then(() => {
      if (!answered(ctx)) return finish(koa, ctx);
    })
    .catch((error) => ctx.onerror(error));
}

/** Writes the common answers (a JSON value, text or bytes, with a status that has a body); false: Koa's to answer. */
function answered(ctx: Context): boolean {
  if (ctx.respond === false) return true;
  const { res } = ctx;
  const body: unknown = ctx.response.body;
  if (
    body === null ||
    body === undefined ||
    !ctx.response.writable ||
    ctx.req.method === "HEAD" ||
    EMPTY.has(res.statusCode)
  )
    return false;
  let size: number;
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    res.end(body);
    size = body.length;
  } else {
    const proto: unknown = Object.getPrototypeOf(body);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
    const json = JSON.stringify(body);
    if (!res.headersSent) ctx.response.length = Buffer.byteLength(json);
    res.end(json);
    size = json.length;
  }
  // A large body written, the context lets go of it (Koa's setter only drops it once the head is sent). A request
  // that waited, for a pooled database connection say, has its context in V8's old generation by now, and what an
  // old object points to outlives every young collection until the next full one. Small bodies are left: Koa's
  // setter costs more than keeping them.
  if (size >= LARGE_BODY) ctx.response.body = undefined;
  return true;
}

/** Koa's own handleRequest writes the answer: its chain only puts back the status the stack set. */
function finish(koa: KoaParts, ctx: Context): Promise<void> {
  const status = ctx.res.statusCode;
  return koa.handleRequest(ctx, () => {
    ctx.res.statusCode = status;
    return Promise.resolve();
  });
}

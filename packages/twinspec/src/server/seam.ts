// The one module where the request path does by hand what a library does, because the library's way costs more than
// this server can give (issue 41). Each is held to the library it stands in for by test/server/seam.test.ts:
// - `koaListener`, the request listener in place of `koa.callback()`;
// - `logRequestLines`, the access log lines as pino writes them.
//
// koaListener: Koa's middleware composed once by koa-compose (as callback() does), run on Koa's own contexts
// (`koa.createContext`). The common answers — a JSON value, text or
// bytes, with a status that has a body, to a request other than HEAD — are written here as Koa's respond writes
// them. Every other answer (HEAD, empty statuses, no body, streams, Blob, ReadableStream, Response, an unwritable
// response) is handed to Koa's own callback() on a second application, whose one middleware puts back the body and
// status the stack left, so Koa decides it. What this leaves out of callback() is on-finished's watch over every
// response, which reports errors of a socket after its answer; Twinspec's Koa is silent about them anyway.
//
// logRequestLines: the line pino's `logger.info({ requestId, method, url, status, ms }, "request")` writes, byte for
// byte, formatted from its fixed shape rather than by pino's walk over an object's keys, and written to the server
// logger's own destination (so it stays in order with every other line). Loggers that are not the server's, or that
// add fields to every line (tracing's mixin), get the line through pino.
import type { IncomingMessage, ServerResponse } from "node:http";
import Koa, { type Context } from "koa";
import compose from "koa-compose";
import type { Logger } from "pino";
import { requestLinesDestination } from "../logger.js";

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface KoaListener {
  listener: RequestListener;
  /** whether a request has come in: the stack is composed then, and middleware added later would miss it */
  started: () => boolean;
}

/** Statuses whose answers have no body (Koa's statuses.empty). */
const EMPTY = new Set([204, 205, 304]);

/** What the stack left for Koa's own respond to write: its body and status, as set. */
interface Left {
  body: unknown;
  status: number;
  message: string;
}

export function koaListener(koa: Koa): KoaListener {
  let chain: ((ctx: Context) => Promise<unknown>) | undefined;
  const left = new WeakMap<IncomingMessage, Left>();
  // Koa's own answer for what is not written here: its callback() over a stack that only puts back what was left.
  const responder = new Koa();
  responder.silent = true;
  responder.use((ctx) => {
    const { body, status, message } = left.get(ctx.req)!;
    // The body first: Koa's setter picks a status for it, which the one set afterwards replaces.
    if (body !== undefined) ctx.body = body;
    ctx.status = status;
    ctx.message = message;
  });
  let respond: ReturnType<Koa["callback"]> | undefined;

  const handle = (ctx: Context): Promise<void> => {
    ctx.res.statusCode = 404;
    return chain!(ctx)
      .then(() => {
        if (!answered(ctx)) {
          left.set(ctx.req, { body: ctx.body, status: ctx.status, message: ctx.message });
          void (respond ??= responder.callback())(ctx.req, ctx.res);
        }
      })
      .catch((error) => ctx.onerror(error));
  };
  const listener: RequestListener = (req, res) => {
    if (!chain) {
      chain = compose(koa.middleware);
      // As callback(): errors ctx.onerror reports go to Koa's own handler unless the app listens itself.
      if (!koa.listenerCount("error")) koa.on("error", (error: Error) => koa.onerror(error));
    }
    const ctx = koa.createContext(req, res);
    if (koa.ctxStorage) void koa.ctxStorage.run(ctx, () => handle(ctx));
    else void handle(ctx);
  };
  return { listener, started: () => chain !== undefined };
}

/** Writes the common answers (a JSON value, text or bytes, with a status that has a body); false: Koa's to answer. */
function answered(ctx: Context): boolean {
  if (ctx.respond === false) return true;
  const { res } = ctx;
  const body: unknown = ctx.body;
  if (body === null || body === undefined || !ctx.writable || ctx.method === "HEAD" || EMPTY.has(res.statusCode))
    return false;
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    res.end(body);
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(body);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  const json = JSON.stringify(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(json);
  res.end(json);
  return true;
}

/** The fields of the access log line, in the line's order. */
export interface RequestLine {
  requestId: string;
  method: string;
  url: string;
  status: number;
  /** whole milliseconds */
  ms: number;
}

/** What JSON.stringify escapes in a string of HTTP's (latin-1: no lone surrogates). */
const ESCAPED = /["\\]|[^\x20-\uffff]/;

/** A string as JSON.stringify (and so pino) writes it; most need no escaping, and a test costs less than the call. */
const quoted = (text: string): string => (ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`);

/** `logger.info(line, "request")` for each of `lines`, as pino would write them (one write for them all). */
export function logRequestLines(logger: Logger, lines: readonly RequestLine[]): void {
  const destination = requestLinesDestination(logger);
  if (destination === undefined) {
    for (const { requestId, method, url, status, ms } of lines)
      logger.info({ requestId, method, url, status, ms }, "request");
    return;
  }
  if (logger.levelVal > 30) return;
  // Logged together, within one turn of the event loop: one time for them all.
  const time = `{"level":30,"time":${Date.now()},"requestId":`;
  let text = "";
  for (const line of lines) {
    text += `${time}${quoted(line.requestId)},"method":${quoted(line.method)},"url":${quoted(line.url)},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`;
  }
  destination.write(text);
}

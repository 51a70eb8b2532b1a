// JSON-lines logs (pino); stack traces go to the log, never to clients.
import { pino, type Logger } from "pino";

/** `mixin` adds fields to every line (tracing: the active span's trace_id and span_id). */
export type LogMixin = () => Record<string, unknown>;

let second = NaN;
let secondIso = "";
/**
 * pino's `"time"` field as `new Date().toISOString()` writes it (pino.stdTimeFunctions.isoTime), but the date and
 * time up to the second are formatted once a second rather than on every line (toISOString was half of the line's
 * formatting cost).
 */
export function isoTime(now = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    secondIso = `,"time":"${new Date(s * 1000).toISOString().slice(0, 20)}`;
  }
  const ms = now - s * 1000;
  return secondIso + (ms < 10 ? "00" : ms < 100 ? "0" : "") + ms + 'Z"';
}

/**
 * A JSON-lines pino logger on stdout, its lines not batched (tests, scripts; a server uses createServerLogger).
 *
 * @param level - the lowest level written: "trace", "debug", "info" (default), "warn", "error", "fatal" or "silent"
 * @param mixin - adds fields to every line (tracing: the active span's ids); default none
 */
export const createLogger = (level = "info", mixin?: LogMixin): Logger =>
  pino({ level, base: undefined, timestamp: isoTime, mixin });

/** How long a request line waits at most for others to be written with it (README: Operations). */
export const REQUEST_LINES_DELAY_MS = 100;
/** Request lines are written in chunks of up to this many bytes: ~100 lines a write(2) (sonic-boom's largest write). */
const CHUNK = 16 * 1024;

/** How many of logRequestLine's lines are gathered before they are formatted (~20 KB of text at most, usually). */
const LINES_PER_PASS = 128;

/** sonic-boom in contentMode "buffer" (its types know strings only). */
type Destination = { write(chunk: Buffer): boolean };

/**
 * What the server's logger writes to. Request lines (msg "request", one per request) are gathered and written in
 * chunks of ~16 KB, or REQUEST_LINES_DELAY_MS after the first of them when traffic is low; every other line
 * (start-up, warnings, errors) is written at once, after the request lines gathered before it, so the order holds.
 * The server's own request lines (logRequestLine) are kept as their fields and formatted LINES_PER_PASS at a time,
 * outside the requests: formatting and encoding each line within its request costs several times what the same work
 * costs in a loop. Writes are synchronous: a write(2) per chunk costs less than an async one through libuv's thread
 * pool, and what was handed over is on stdout when the process
 * exits (an async write still in the pool at exit could be lost or land after later lines). As with pino's default
 * destination, a stdout that nobody reads holds the process up instead of filling its memory.
 */
class RequestLineBatch {
  // pino sets lastMsg (and lastLevel, lastObj…) before each write to a stream that asks for it.
  readonly [pino.symbols.needsMetadataGsym] = true;
  lastMsg: unknown;
  #chunk = Buffer.allocUnsafe(CHUNK);
  #length = 0;
  #gathered: RequestLine[] = [];
  readonly #times = new Float64Array(LINES_PER_PASS);
  #timer: NodeJS.Timeout | undefined;
  readonly #destination: Destination;
  readonly #onTimer = () => {
    this.#timer = undefined;
    this.writePending();
  };

  constructor(destination: Destination) {
    this.#destination = destination;
  }

  /** A line from pino: after the request lines gathered before it; written at once unless it is a request line. */
  write(line: string): void {
    this.#formatGathered();
    this.#append(line);
    if (this.lastMsg === "request") this.#arm();
    else this.writePending();
  }

  /** A request line of logRequestLine's, logged at `time` (ms since epoch): formatted later, with others. */
  request(line: RequestLine, time: number): void {
    const n = this.#gathered.length;
    this.#gathered.push(line);
    this.#times[n] = time;
    if (n + 1 === LINES_PER_PASS) this.#formatGathered();
    else this.#arm();
  }

  #arm(): void {
    if (this.#timer === undefined) this.#timer = setTimeout(this.#onTimer, REQUEST_LINES_DELAY_MS).unref();
  }

  /** The gathered request lines, byte for byte as pino writes them (test/logger.test.ts), into the chunk. */
  #formatGathered(): void {
    const lines = this.#gathered;
    if (lines.length === 0) return;
    this.#gathered = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      this.#append(
        `{"level":30${isoTime(this.#times[i])},"requestId":${quoted(line.requestId)},"method":${quoted(line.method)},"url":${quoted(line.url)},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
      );
    }
  }

  #append(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.#length + line.length * 3 > CHUNK) {
      this.writePending();
      if (line.length * 3 > CHUNK) return void this.#destination.write(Buffer.from(line));
    }
    this.#length += this.#chunk.write(line, this.#length);
  }

  writePending(): void {
    this.#formatGathered();
    if (this.#length === 0) return;
    // The written chunk is sonic-boom's (it keeps a chunk it failed to write): the next lines go to a new one.
    const written = this.#chunk.subarray(0, this.#length);
    this.#chunk = Buffer.allocUnsafe(CHUNK);
    this.#length = 0;
    this.#destination.write(written);
  }

  /** pino's logger.flush(). */
  flush(cb?: (error?: Error) => void): void {
    this.writePending();
    cb?.();
  }
}

/** What JSON.stringify escapes in a string of HTTP's (latin-1: no lone surrogates). */
const ESCAPED = /["\\]|[^\x20-\uffff]/;

/** A string as JSON.stringify writes it; most need no escaping, and a test costs less than the call. */
const quoted = (text: string): string => (ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`);

/** The server loggers (without a mixin) whose request lines logRequestLine formats itself. */
const requestLineBatches = new WeakMap<Logger, RequestLineBatch>();

/**
 * The server's logger, on stdout (`dest`: another file descriptor, for tests), request lines batched
 * (RequestLineBatch). `flush()` writes what is gathered; a process that ends otherwise (process.exit, an uncaught
 * exception or rejection, an empty event loop) writes it too.
 *
 * @param level - the lowest level written (LOG_LEVEL): "trace", "debug", "info" (default), "warn", "error", "fatal" or "silent"
 * @param mixin - adds fields to every line (tracing: the active span's trace_id and span_id); default none, and
 *   request lines are then formatted by the server itself (faster)
 * @param dest - the file descriptor written to (default 1, stdout)
 */
export function createServerLogger(level = "info", mixin?: LogMixin, dest = 1): { logger: Logger; flush: () => void } {
  const destination = pino.destination({ dest, sync: true, contentMode: "buffer" });
  // A stdout that fails (pino ignores a closed pipe) ends the process, as it did when writes were async, rather than
  // throwing into whichever request's line filled the chunk.
  destination.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") return;
    process.nextTick(() => {
      throw error;
    });
  });
  const batch = new RequestLineBatch(destination as unknown as Destination);
  const logger = pino({ level, base: undefined, timestamp: isoTime, mixin }, batch);
  // With a mixin (tracing), its fields are part of the line: pino writes it.
  if (!mixin) requestLineBatches.set(logger, batch);
  writtenAtExit(batch);
  return { logger, flush: () => batch.writePending() };
}

/**
 * The batches whose lines are written when the process exits, by one listener (one per logger would pile up where
 * many loggers are made, as in tests). Weakly held: a batch with lines to write has its timer armed, which holds it.
 */
const atExit = new Set<WeakRef<RequestLineBatch>>();
let listening = false;
function writtenAtExit(batch: RequestLineBatch): void {
  if (!listening) process.on("exit", () => atExit.forEach((ref) => ref.deref()?.writePending()));
  listening = true;
  for (const ref of atExit) if (!ref.deref()) atExit.delete(ref);
  atExit.add(new WeakRef(batch));
}

/** The fields of the request line, in the line's order. */
export interface RequestLine {
  requestId: string;
  method: string;
  url: string;
  status: number;
  ms: number;
}

/**
 * `logger.info(line, "request")`. On the server's logger (without tracing's mixin) the batch formats the line itself,
 * later (RequestLineBatch): the line's shape is fixed, so pino's generic walk over the object's keys is not needed.
 * JSON.stringify escapes as pino does: the strings come from HTTP (latin-1,
 * no lone surrogates). The caller hands `line` over: it must not change it afterwards.
 */
export function logRequestLine(logger: Logger, line: RequestLine): void {
  const batch = requestLineBatches.get(logger);
  if (batch === undefined) logger.info(line, "request");
  else if (logger.levelVal <= 30) batch.request(line, Date.now());
}

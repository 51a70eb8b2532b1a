// JSON-lines logs (pino); stack traces go to the log, never to clients.
import { pino, type Logger, type LoggerOptions } from "pino";

/** `mixin` adds fields to every line (tracing: the active span's trace_id and span_id). */
export type LogMixin = () => Record<string, unknown>;

/** The options every logger of ours shares: no pid or hostname; `time` is pino's, milliseconds since the epoch. */
const options = (level: string, mixin?: LogMixin): LoggerOptions => ({ level, base: undefined, mixin });

/**
 * A JSON-lines pino logger on stdout, each line written at once (tests, scripts; a server uses createServerLogger).
 *
 * @param level - the lowest level written: "trace", "debug", "info" (default), "warn", "error", "fatal" or "silent"
 * @param mixin - adds fields to every line (tracing: the active span's ids); default none
 */
export const createLogger = (level = "info", mixin?: LogMixin): Logger => pino(options(level, mixin));

/** How long a line waits at most in the server logger's buffer before it is written (README: Operations). */
export const LOG_FLUSH_MS = 100;
/** The server logger writes once this many bytes are gathered (about 50 request lines). */
const LOG_CHUNK_BYTES = 8192;

/**
 * The server's logger, on stdout (`dest`: another file descriptor, for tests), through pino's own destination
 * (sonic-boom), which gathers lines and writes them LOG_CHUNK_BYTES at a time, or LOG_FLUSH_MS after the first when
 * traffic is low. Its request lines are formatted by server/seam.ts, as pino would.
 * Writes are synchronous (a stdout that nobody reads holds the process up instead of filling its memory); what is
 * gathered is written when the process exits (process.exit, an uncaught exception, an empty event loop), and
 * `flush()` writes it now.
 *
 * @param level - the lowest level written (LOG_LEVEL): "trace", "debug", "info" (default), "warn", "error", "fatal" or "silent"
 * @param mixin - adds fields to every line (tracing: the active span's trace_id and span_id); default none
 * @param dest - the file descriptor written to (default 1, stdout)
 */
export function createServerLogger(level = "info", mixin?: LogMixin, dest = 1): { logger: Logger; flush: () => void } {
  const destination = pino.destination({ dest, sync: true, minLength: LOG_CHUNK_BYTES, periodicFlush: LOG_FLUSH_MS });
  // A stdout that fails (pino ignores a closed pipe) ends the process rather than going on without a log.
  destination.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") return;
    process.nextTick(() => {
      throw error;
    });
  });
  writtenAtExit(destination);
  const logger = pino(options(level, mixin), destination);
  // With a mixin (tracing), its fields are part of every line: pino writes the request lines too.
  if (!mixin) requestLines.set(logger, destination);
  return { logger, flush: () => destination.flush() };
}

type Destination = ReturnType<typeof pino.destination>;

/** The server loggers (without a mixin) whose request lines server/seam.ts formats, and where they write. */
const requestLines = new WeakMap<Logger, Destination>();

/** Where server/seam.ts writes `logger`'s request lines; undefined: pino writes them (not a server logger, or traced). */
export const requestLinesDestination = (logger: Logger): Destination | undefined => requestLines.get(logger);

/**
 * The destinations whose lines are written when the process exits, by one listener (one per logger would pile up
 * where many loggers are made, as in tests). sonic-boom's flush, not its flushSync: that one retries a failed write
 * for ever.
 */
const atExit = new Set<Destination>();
function writtenAtExit(destination: Destination): void {
  if (atExit.size === 0) process.on("exit", () => atExit.forEach((d) => d.flush()));
  atExit.add(destination);
}

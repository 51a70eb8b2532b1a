// JSON-lines logs (pino); stack traces go to the log, never to clients.
import { pino, type Logger } from "pino";

/** `mixin` adds fields to every line (tracing: the active span's trace_id and span_id). */
export type LogMixin = () => Record<string, unknown>;

export const createLogger = (level = "info", mixin?: LogMixin): Logger => pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, mixin });

/**
 * The server's logger: writes to stdout asynchronously (sonic-boom coalesces lines instead of one write(2) per
 * request). `flush()` before exiting so the last lines are not lost.
 */
export function createServerLogger(level = "info", mixin?: LogMixin): { logger: Logger; flush: () => void } {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, mixin }, destination);
  return { logger, flush: () => destination.flushSync() };
}

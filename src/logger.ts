// JSON-lines logs (pino); stack traces go to the log, never to clients.
import { pino, type Logger } from "pino";

export const createLogger = (level = "info"): Logger => pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });

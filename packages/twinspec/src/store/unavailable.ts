// "The database cannot serve this now" as one error kind, whatever the database said: PostgreSQL unreachable or
// refusing connections, a connection lost mid-query, the pool's wait running out; SQLite's disk full, I/O errors,
// or a lock held past busy_timeout. Transports answer it 503 + Retry-After (REST) or SERVICE_UNAVAILABLE (GraphQL)
// instead of a masked 500: the request was fine, and the same request later may well succeed.

export type UnavailableKind = "unreachable" | "storage" | "busy";

export class DatabaseUnavailableError extends Error {
  constructor(
    readonly kind: UnavailableKind,
    /** what the database or driver said, for the log (never sent to clients) */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(MESSAGES[kind], options);
  }

  /** a hint for Retry-After: reconnecting is quick; a full disk or a broken device needs someone to act */
  get retryAfterSeconds(): number {
    return this.kind === "storage" ? 5 : 1;
  }
}

const MESSAGES: Record<UnavailableKind, string> = {
  unreachable: "The database cannot be reached right now; retry shortly.",
  storage: "The database cannot store data right now; retry later.",
  busy: "The database is too busy to answer right now; retry shortly.",
};

// Node's socket errors on the way to the database.
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
// pg's own words for a connection that is gone or never came, and pg-pool's for a wait that ran out.
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout)/;
// SQLSTATE: connection exceptions (class 08), the server shutting down or starting (57P01-03), too many
// connections (53300), out of disk, memory or other resources (53xxx), I/O error (58030).
const PG_STATES: Record<string, UnavailableKind> = {
  "57P01": "unreachable",
  "57P02": "unreachable",
  "57P03": "unreachable",
  "53300": "busy",
  "53000": "busy",
  "53200": "busy",
  "53100": "storage",
  "58030": "storage",
};

function kindOf(error: unknown): UnavailableKind | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code)) return "unreachable";
    if (/^08[0-9A-Z]{3}$/.test(code)) return "unreachable";
    if (PG_STATES[code]) return PG_STATES[code];
    // better-sqlite3's SqliteError carries the extended result code: SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, …
    if (/^SQLITE_(FULL|IOERR|CANTOPEN|NOMEM)/.test(code)) return "storage";
    if (/^SQLITE_BUSY/.test(code)) return "busy";
  }
  return PG_MESSAGES.test(error.message) ? "unreachable" : undefined;
}

/**
 * The error as a DatabaseUnavailableError when it (or an error it was caused by) means the database cannot serve
 * now; undefined for anything else (a bug, a constraint violation, …), which stays a 500.
 */
export function unavailable(error: unknown): DatabaseUnavailableError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return e;
    const kind = kindOf(e);
    if (kind) return new DatabaseUnavailableError(kind, e.message, { cause: e });
  }
  return undefined;
}

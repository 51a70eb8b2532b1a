// A hot query built and compiled once: Kysely otherwise rebuilds and recompiles its operation tree on every call.
// The query must take exactly `args` as its parameters, in order (checked once, at build time). On SQLite, outside
// any transaction, it runs on its better-sqlite3 statement directly, without Kysely's connection queue: a point read
// then costs what the read costs. Inside a transaction (any, on the one connection) it waits its turn through Kysely,
// so it never sees another request's uncommitted writes.
import type SQLite from "better-sqlite3";
import type { Compilable, CompiledQuery, Kysely, LogEvent } from "kysely";

interface Direct {
  sqlite: SQLite.Database;
  onQuery?: (event: LogEvent) => void;
  beforeQuery?: () => void;
}

const direct = new WeakMap<Kysely<any>, Direct>();

/** Lets prepared queries on `db` (not on its transactions) run on the better-sqlite3 handle itself. */
export function runDirectly(db: Kysely<any>, handle: Direct): void {
  direct.set(db, handle);
}

export function prepared<Args extends unknown[], Row>(db: Kysely<any>, build: (...args: Args) => Compilable<Row>, sample: Args) {
  const compiled = build(...sample).compile();
  if (JSON.stringify(compiled.parameters) !== JSON.stringify(sample)) {
    throw new Error(`prepared query's parameters ${JSON.stringify(compiled.parameters)} are not its arguments ${JSON.stringify(sample)}`);
  }
  const handle = direct.get(db);
  if (!handle) return async (...args: Args): Promise<Row[]> => (await db.executeQuery<Row>({ ...compiled, parameters: args })).rows;
  const statement = handle.sqlite.prepare(compiled.sql);
  return async (...args: Args): Promise<Row[]> => {
    if (handle.sqlite.inTransaction) return (await db.executeQuery<Row>({ ...compiled, parameters: args })).rows;
    handle.beforeQuery?.();
    const started = handle.onQuery ? performance.now() : 0;
    const rows = statement.all(...args) as Row[];
    handle.onQuery?.({ level: "query", isStream: false, query: { ...compiled, parameters: args } as CompiledQuery, queryDurationMillis: performance.now() - started });
    return rows;
  };
}

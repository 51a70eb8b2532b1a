// A hot query built and compiled once: Kysely otherwise rebuilds and recompiles its operation tree on every call.
// The query must take exactly `args` as its parameters, in order (checked once, at build time). On SQLite, outside
// any transaction, it runs on its better-sqlite3 statement directly, without Kysely's connection queue: a point read
// then costs what the read costs. Inside a transaction (any, on the one connection) it waits its turn through Kysely,
// so it never sees another request's uncommitted writes. On PostgreSQL it runs as a named statement
// (statement-names.ts), parsed and planned once per connection, on a connection of the pool directly: Kysely's
// executor would add a dozen promises per query for a connection it hands over unchanged.
import type SQLite from "better-sqlite3";
import type Pg from "pg";
import {
  sql,
  type Compilable,
  type CompiledQuery,
  type Expression,
  type Kysely,
  type LogEvent,
  type SqlBool,
} from "kysely";
import { isPostgres } from "./dialect.js";
import type { StatementNames } from "./statement-names.js";

interface Hooks {
  /** set on SQLite: prepared queries on `db` (not on its transactions) run on this handle itself */
  sqlite?: SQLite.Database;
  onQuery?: (event: LogEvent) => void;
  countQuery?: () => void;
  beforeQuery?: () => void;
  /** set on PostgreSQL (with `pool`): prepared queries run as named statements */
  statementNames?: StatementNames;
  /** set on PostgreSQL: prepared queries on `db` (not on its transactions) run on a connection of this pool */
  pool?: DirectPool;
}

/** The pool prepared queries check connections out of (availability.ts's GuardedPool). */
interface DirectPool {
  /** one query on a connection of the pool, returned to it before the answer is */
  query(config: Pg.QueryConfig): Promise<Pg.QueryResult>;
  /** a query failed on a connection of it: a lost one makes the database's probe look at once */
  observe(error: unknown): void;
}

const hooks = new WeakMap<Kysely<any>, Hooks>();

/** What prepared queries on `db` run on and report to (compiled queries pass no Kysely plugin). */
export function prepareOn(db: Kysely<any>, handle: Hooks): void {
  hooks.set(db, handle);
}

/** A query compiled once (its parameters checked to be its arguments), and how it runs through Kysely. */
function compileOnce<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  sample: Args,
  raw: boolean,
) {
  const compiled = build(...sample).compile();
  if (JSON.stringify(compiled.parameters) !== JSON.stringify(sample)) {
    throw new Error(
      `prepared query's parameters ${JSON.stringify(compiled.parameters)} are not its arguments ${JSON.stringify(sample)}`,
    );
  }
  const handle = hooks.get(db) ?? {};
  const throughKysely = async (args: Args): Promise<Row[]> => {
    handle.beforeQuery?.();
    return (await db.executeQuery<Row>({ ...compiled, parameters: args })).rows;
  };
  const pool = handle.pool;
  if (!pool) return { compiled, handle, throughKysely };
  const text = compiled.sql;
  const name = handle.statementNames?.nameOf(text);
  const rowMode = raw ? "array" : undefined;
  const onPool = async (args: Args): Promise<Row[]> => {
    handle.beforeQuery?.();
    handle.countQuery?.();
    const started = handle.onQuery ? performance.now() : 0;
    try {
      const { rows } = await pool.query({ name, text, values: args, rowMode } as Pg.QueryConfig);
      handle.onQuery?.({
        level: "query",
        isStream: false,
        query: { ...compiled, parameters: args },
        queryDurationMillis: performance.now() - started,
      });
      return rows as Row[];
    } catch (error) {
      pool.observe(error);
      handle.onQuery?.({
        level: "error",
        error,
        query: { ...compiled, parameters: args },
        queryDurationMillis: performance.now() - started,
      });
      throw error;
    }
  };
  return { compiled, handle, throughKysely: onPool };
}

/**
 * A row's values in the order of the selection: both drivers build a row's keys in that order (on PostgreSQL a raw
 * read's rows come as arrays already).
 */
const valuesOf = (row: unknown): unknown[] => (Array.isArray(row) ? row : Object.values(row as object));

/**
 * A hot query built and compiled once: returns `(...args) => Promise<Row[]>`, which runs it with those arguments as
 * its parameters (on SQLite outside a transaction, on its better-sqlite3 statement directly; on PostgreSQL as a
 * named statement). Throws at once when the query's parameters are not exactly `sample`, in order.
 *
 * @param db - the store's Kysely handle (`deps.store.db`); a call inside a transaction runs on it in turn
 * @param build - builds the query from its arguments (each argument used once, as a parameter, in order)
 * @param sample - example arguments, one per parameter of `build` (distinct values, so their order can be checked):
 *   `build` is called with them once, to compile
 */
export function prepared<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  sample: Args,
): (...args: Args) => Promise<Row[]>;
/**
 * With `raw`, each row comes as its values in the order of the query's selection (better-sqlite3's raw mode).
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param build - builds the query from its arguments (each argument used once, as a parameter, in order)
 * @param sample - example arguments, one per parameter of `build`: `build` is called with them once, to compile
 * @param raw - true: rows as arrays of values
 */
export function prepared<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  sample: Args,
  raw: true,
): (...args: Args) => Promise<unknown[][]>;
export function prepared<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  sample: Args,
  raw = false,
) {
  const { compiled, handle, throughKysely } = compileOnce(db, build, sample, raw);
  const kysely = raw
    ? async (...args: Args) => (await throughKysely(args)).map(valuesOf)
    : (...args: Args) => throughKysely(args);
  const sqlite = handle.sqlite;
  if (!sqlite) return kysely;
  const statement = sqlite.prepare(compiled.sql);
  if (raw) statement.raw(true);
  return async (...args: Args) =>
    sqlite.inTransaction ? kysely(...args) : run(handle, compiled, args, () => statement.all(...args));
}

/**
 * The first row of a query, as its values in the order of the selection (undefined: none), on SQLite read by
 * better-sqlite3's `get` in raw mode: building a row object natively costs more than the read of a short row itself.
 * Returns `(...args) => Promise<unknown[] | undefined>`.
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param build - builds the query from its arguments (each argument used once, as a parameter, in order)
 * @param sample - example arguments, one per parameter of `build`: `build` is called with them once, to compile
 */
export function preparedFirst<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  sample: Args,
): (...args: Args) => Promise<unknown[] | undefined> {
  const { compiled, handle, throughKysely } = compileOnce(db, build, sample, true);
  const kysely = async (...args: Args) => {
    const [row] = await throughKysely(args);
    return row === undefined ? undefined : valuesOf(row);
  };
  const sqlite = handle.sqlite;
  if (!sqlite) return kysely;
  const statement = sqlite.prepare(compiled.sql).raw(true);
  return async (...args: Args) =>
    sqlite.inTransaction
      ? kysely(...args)
      : run(handle, compiled, args, () => statement.get(...args) as unknown[] | undefined);
}

/** What a read needs of a projection (src/domain/projection.ts): its columns, what tells them apart, their values' model. */
export interface ValuesProjection<Model> {
  /** the columns to select */
  readonly columns: readonly string[];
  /** what tells two projections' column sets apart (one compiled read per key) */
  readonly key: string;
  /**
   * The model from the row's values, in the order of `columns`.
   *
   * @param values - the row's values
   */
  mapValues(values: readonly unknown[]): Model;
}

/**
 * One row of `table` by `keyColumn` (undefined: none), as a projection's model and, beside it, the `state` columns
 * by name: what the caller decides with (a tombstone, a redirect), which the model does not carry. Each set of
 * columns is one `preparedFirst` statement, compiled on first use. Returns
 * `(key, projection) => Promise<{ model, state } | undefined>`.
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param table - the table read
 * @param keyColumn - the column the key is a value of (its id)
 * @param state - the columns read besides the projection's, handed back by name (e.g. `["deleted_at"]`)
 */
export function projectedByKey<Row, State extends keyof Row & string>(
  db: Kysely<any>,
  table: string,
  keyColumn: keyof Row & string,
  state: readonly State[],
) {
  const reads = new Map<string, { read: (key: string) => Promise<unknown[] | undefined>; at: number[] }>();
  // A plain column name: Kysely's types cannot follow `keyof Row` through a table named at run time.
  const column: string = keyColumn;
  return async <Model>(
    key: string,
    projection: ValuesProjection<Model>,
  ): Promise<{ model: Model; state: Pick<Row, State> } | undefined> => {
    let found = reads.get(projection.key);
    if (!found) {
      const columns = [...new Set([...projection.columns, ...state])];
      const read = preparedFirst(db, (key: string) => db.selectFrom(table).select(columns).where(column, "=", key), [
        "sample",
      ]);
      reads.set(projection.key, (found = { read, at: state.map((column) => columns.indexOf(column)) }));
    }
    const values = await found.read(key);
    if (values === undefined) return undefined;
    const named = {} as Record<State, unknown>;
    for (let i = 0; i < state.length; i++) named[state[i]] = values[found.at[i]];
    return { model: projection.mapValues(values), state: named as Pick<Row, State> };
  };
}

/** A query run on its better-sqlite3 statement, reported as Kysely reports the queries it runs. */
function run<T>(handle: Hooks, compiled: CompiledQuery, args: unknown[], query: () => T): T {
  handle.beforeQuery?.();
  handle.countQuery?.();
  if (!handle.onQuery) return query();
  const started = performance.now();
  const result = query();
  handle.onQuery({
    level: "query",
    isStream: false,
    query: { ...compiled, parameters: args },
    queryDurationMillis: performance.now() - started,
  });
  return result;
}

/**
 * The condition "`column` is one of the ids" a batch read is built with (see `preparedIn`).
 *
 * @param column - the column holding the ids (qualified when the query joins)
 */
export type AmongIds = (column: string) => Expression<SqlBool>;

/**
 * A query over a list of ids, compiled once and then run like a `prepared` one: a loader's batch read skips Kysely's
 * building and compiling per request. `build` states which column holds the ids with `among(column)`: on
 * PostgreSQL `column = any($1)` (one array parameter, one named statement whatever the number of ids), on SQLite
 * `column in (?, …)`, compiled once per number of ids. It is compiled again per `variant` (e.g. the columns a
 * projection reads) and must take no other parameter. At most `max` compiled forms are kept. Returns
 * `(ids, variant, variantKey) => Promise<Row[]>`: `variantKey` names the variant (its compiled forms are kept by it).
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param build - builds the query: `among(column)` is its one condition on the ids, `variant` whatever else varies
 * @param max - most compiled forms kept (default 256); the oldest is dropped beyond
 */
export function preparedIn<Row, Variant>(
  db: Kysely<any>,
  build: (among: AmongIds, variant: Variant) => Compilable<Row>,
  max = 256,
) {
  return formsPerLength<Variant, Row[]>(
    db,
    (sample, variant, among) => prepared<unknown[], Row>(db, () => build(among, variant), sample),
    max,
  );
}

/**
 * `preparedIn`, each row as its values in the order of the selection (see `prepared`'s `raw`): returns
 * `(ids, variant, variantKey) => Promise<unknown[][]>`.
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param build - builds the query: `among(column)` is its one condition on the ids, `variant` whatever else varies
 * @param max - most compiled forms kept (default 256); the oldest is dropped beyond
 */
export function preparedInRaw<Row, Variant>(
  db: Kysely<any>,
  build: (among: AmongIds, variant: Variant) => Compilable<Row>,
  max = 256,
) {
  return formsPerLength<Variant, unknown[][]>(
    db,
    (sample, variant, among) => prepared<unknown[], Row>(db, () => build(among, variant), sample, true),
    max,
  );
}

type Compile<Variant, Result> = (
  sample: unknown[],
  variant: Variant,
  among: AmongIds,
) => (...args: unknown[]) => Promise<Result>;

function formsPerLength<Variant, Result>(db: Kysely<any>, compile: Compile<Variant, Result>, max: number) {
  const forms = new Map<string, (...args: unknown[]) => Promise<Result>>();
  const array = isPostgres(db);
  return (ids: readonly string[], variant: Variant, variantKey: string): Promise<Result> => {
    const key = array ? variantKey : `${ids.length}:${variantKey}`;
    let run = forms.get(key);
    if (!run) {
      // The sample is the ids themselves: the compiled query's parameters must be exactly them.
      const sample = array ? [[...ids]] : [...ids];
      const among: AmongIds = array
        ? (column) => sql<SqlBool>`${sql.ref(column)} = any(${sample[0]})`
        : (column) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(sample)})`;
      run = compile(sample, variant, among);
      if (forms.size >= max) forms.delete(forms.keys().next().value!);
      forms.set(key, run);
    }
    return array ? run(ids) : run(...ids);
  };
}

// PostgreSQL behind the same Kysely<Database> as SQLite: a pg pool (DATABASE_POOL_MAX), numbers that come back
// as numbers, and migrations serialized across instances that start at the same moment.
import { Kysely, PostgresDialect, sql, type KyselyPlugin, type LogEvent } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import type { Database } from "./schema.js";

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

// pg returns int8 (count(*), sums) and numeric as strings to avoid precision loss; our values are far below
// 2^53, and the SQLite path returns numbers, so both parse to Number here.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export interface PostgresHandle {
  pool: pg.Pool;
  /** settings for a connection of its own (the event bus's LISTEN connection) */
  clientConfig: pg.ClientConfig;
  /** the schema the tables live in (first of search_path) */
  schema: string;
}

export interface PostgresOptions {
  poolMax?: number;
  onQuery?: (event: LogEvent) => void;
  plugins?: KyselyPlugin[];
  logger?: Logger;
}

/** Where a URL points, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "the DATABASE_URL given";
  }
}

export async function openPostgres(url: string, options: PostgresOptions, migrate: (db: Kysely<Database>, schema: string) => Promise<void>) {
  const clientConfig: pg.ClientConfig = { connectionString: url, types, application_name: "twinspec" };
  const pool = new pg.Pool({ ...clientConfig, max: options.poolMax ?? 10 });
  // An idle connection that breaks (server restart, network) is dropped by the pool; the next query opens a new
  // one. Without a listener the error would crash the process.
  pool.on("error", (err) => options.logger?.warn({ err }, "idle PostgreSQL connection lost"));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.onQuery, plugins: options.plugins });
  try {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error("its search_path names no existing schema");
    await serialized(clientConfig, `twinspec:migrate:${schema}`, () => migrate(db, schema));
    return { db, handle: { pool, clientConfig, schema } satisfies PostgresHandle };
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new Error(`cannot use PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Runs `work` while holding a session advisory lock on a connection of its own, so instances started together
 * migrate one after another (Kysely's own lock is taken only after it has created its tables).
 */
async function serialized<T>(config: pg.ClientConfig, key: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext($1))", [key]);
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}

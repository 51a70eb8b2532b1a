// PostgreSQL behind the same Kysely<Database> as SQLite: a pg pool (DATABASE_POOL_MAX), numbers that come back
// as numbers, and migrations serialized across instances that start at the same moment.
import { Kysely, PostgresDialect, sql, type KyselyPlugin, type LogEvent } from "kysely";
import type pg from "pg";
import type { Logger } from "pino";
import { Availability, GuardedPool, type AvailabilityOptions } from "./availability.js";
import { kyselyPool, loadPg, pgDriver } from "./pg-driver.js";
import { StatementNames } from "./statement-names.js";
import type { Database } from "./schema.js";

// pg returns int8 (count(*), sums) and numeric as strings to avoid precision loss; our values are far below
// 2^53, and the SQLite path returns numbers, so both parse to Number here.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC
      ? Number
      : pgDriver().types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresHandle {
  /** the pool behind the availability probe: refuses at once (DatabaseUnavailableError) while the database is down */
  pool: GuardedPool;
  availability: Availability;
  /** settings for a connection of its own (the event bus's LISTEN connection) */
  clientConfig: pg.ClientConfig;
  /** the schema the tables live in (first of search_path) */
  schema: string;
}

export interface PostgresOptions {
  poolMax?: number;
  /** longest wait for a connection, new or from the pool (ms, default 5000) */
  connectTimeoutMs?: number;
  availability?: AvailabilityOptions;
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

export async function openPostgres(
  url: string,
  options: PostgresOptions,
  migrate: (db: Kysely<Database>, schema: string) => Promise<void>,
) {
  await loadPg();
  // Every connection of ours (pool, event bus, migration lock) gives up connecting after connectTimeoutMs.
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    types,
    application_name: "twinspec",
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  };
  const statementNames = new StatementNames();
  const newPool = () => {
    const pool = new (pgDriver().Pool)({ ...clientConfig, max: options.poolMax ?? 10 });
    // An idle connection that breaks (server restart, network) is dropped by the pool; the next query opens a new
    // one. Without a listener the error would crash the process.
    pool.on("error", (err) => options.logger?.warn({ err }, "idle PostgreSQL connection lost"));
    return pool;
  };
  const availability = new Availability(clientConfig, {
    ...options.availability,
    logger: options.availability?.logger ?? options.logger,
  });
  const pool = new GuardedPool(newPool, availability);
  const log = (event: LogEvent) => {
    if (event.level === "error") pool.observe(event.error);
    options.onQuery?.(event);
  };
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: kyselyPool(pool) }),
    log,
    plugins: options.plugins,
  });
  try {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error("its search_path names no existing schema");
    await serialized(clientConfig, `twinspec:migrate:${schema}`, () => migrate(db, schema));
    availability.start();
    const handle: PostgresHandle = { pool, availability, clientConfig, schema };
    return { db, handle, statementNames };
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
  const client = new (pgDriver().Client)(config);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext($1))", [key]);
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}

// Opens the database named by DATABASE_URL and applies migrations: SQLite (better-sqlite3) by default,
// PostgreSQL (pg) for postgres:// URLs; the domain sees the same Kysely<Database> either way.
import { existsSync, mkdirSync, promises as fs } from "node:fs";
import path, { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { cachingStatements } from "./statement-cache.js";
import { FileMigrationProvider, Kysely, Migrator, SqliteDialect, type KyselyPlugin, type LogEvent, type MigrationProvider } from "kysely";
import type { Logger } from "pino";
import { IdempotencyKeys } from "./idempotency.js";
import { prepareOn } from "./prepared.js";
import type { AvailabilityOptions } from "./availability.js";
import { openPostgres, type PostgresHandle } from "./postgres.js";
import type { Database } from "./schema.js";
import { projectFile } from "../paths.js";
import { OWN_MIGRATIONS } from "./migrations/index.js";

export const DEFAULT_DATABASE_URL = "sqlite:./data/twinspec.db";

export interface Store {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  /** set on PostgreSQL: the pool and connection settings (the event bus opens its LISTEN connection with them) */
  postgres?: PostgresHandle;
  /** the Idempotency-Key records of REST writes */
  idempotencyKeys: IdempotencyKeys;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** the application's migrations folder, applied after Twinspec's own (default: src/migrations of the project, if any) */
  migrations?: string;
  /** called for every query, with what ran and how long it took (tracing) */
  onQuery?: (event: LogEvent) => void;
  /** called for every query, without an event (metrics count them): cheaper than onQuery on the hot path */
  countQuery?: () => void;
  /** called before every query runs; what it throws fails the query (tests inject faults with it) */
  beforeQuery?: () => void;
  /** PostgreSQL: most connections this instance opens (DATABASE_POOL_MAX; default 10) */
  poolMax?: number;
  /** PostgreSQL: longest wait for a connection (DATABASE_CONNECT_TIMEOUT_MS; default 5000) */
  connectTimeoutMs?: number;
  /** PostgreSQL: the probe that tells the database is down (DATABASE_PING_MS, DATABASE_PING_TIMEOUT_MS) */
  availability?: AvailabilityOptions;
  logger?: Logger;
}

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

function sqlitePath(url: string): string {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:";
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
  throw new Error(`DATABASE_URL "${url}" is not supported: use sqlite:PATH, sqlite::memory: or postgres://…`);
}

export async function openStore(url: string = DEFAULT_DATABASE_URL, options: StoreOptions = {}): Promise<Store> {
  const { onQuery, countQuery } = options;
  const log = onQuery || countQuery ? (event: LogEvent) => (countQuery?.(), onQuery?.(event)) : undefined;
  const plugins = options.beforeQuery ? [beforeQueryPlugin(options.beforeQuery)] : [];
  if (isPostgresUrl(url)) {
    const { db, handle, statementNames } = await openPostgres(url, { ...options, onQuery: log, plugins }, (db, schema) => migrate(db, schema, options.migrations));
    prepareOn(db, { beforeQuery: options.beforeQuery, statementNames, pool: handle.pool, onQuery, countQuery });
    return { db, dialect: "postgres", postgres: handle, idempotencyKeys: new IdempotencyKeys(db), close: () => db.destroy() };
  }
  const path = sqlitePath(url);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the 2xx that acknowledges it.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }), log, plugins });
  prepareOn(db, { sqlite, onQuery, countQuery, beforeQuery: options.beforeQuery });
  await migrate(db, undefined, options.migrations);
  return { db, dialect: "sqlite", idempotencyKeys: new IdempotencyKeys(db), close: () => db.destroy() };
}

const appMigrations = (folder = projectFile("src/migrations")) => (existsSync(folder) ? folder : undefined);

/**
 * Applies pending migrations. On PostgreSQL `schema` names where Kysely keeps its bookkeeping tables: without it
 * Kysely would find them in any schema of the database and skip creating them in ours.
 */
async function migrate(db: Kysely<Database>, schema?: string, migrations?: string): Promise<void> {
  // Twinspec's first, in a bookkeeping table of their own: the application's may rely on its tables.
  await migrateWith(db, { getMigrations: async () => OWN_MIGRATIONS }, { migrationTableSchema: schema, migrationTableName: "twinspec_migration", migrationLockTableName: "twinspec_migration_lock" });
  const app = appMigrations(migrations);
  if (app) await migrateWith(db, new FileMigrationProvider({ fs, path, migrationFolder: app }), { migrationTableSchema: schema });
}

async function migrateWith(db: Kysely<Database>, provider: MigrationProvider, tables: { migrationTableSchema?: string; migrationTableName?: string; migrationLockTableName?: string }): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, ...tables }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Runs `hook` before each query Kysely runs (queries compiled once run it themselves: prepared.ts). */
function beforeQueryPlugin(hook: () => void): KyselyPlugin {
  return {
    transformQuery(args) {
      hook();
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

// Opens the database named by DATABASE_URL and applies migrations: SQLite (better-sqlite3) by default,
// PostgreSQL (pg) for postgres:// URLs; the domain sees the same Kysely<Database> either way.
import { existsSync, mkdirSync, promises as fs } from "node:fs";
import path, { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { cachingStatements } from "./statement-cache.js";
import {
  FileMigrationProvider,
  Kysely,
  Migrator,
  SqliteDialect,
  type KyselyPlugin,
  type LogEvent,
  type MigrationProvider,
} from "kysely";
import type { Logger } from "pino";
import { IdempotencyKeys } from "./idempotency.js";
import { prepareOn } from "./prepared.js";
import type { AvailabilityOptions } from "./availability.js";
import { openPostgres, type PostgresHandle } from "./postgres.js";
import type { Database } from "./schema.js";
import { projectFile } from "../paths.js";
import { OWN_MIGRATIONS } from "./migrations/index.js";

/** The database when DATABASE_URL is unset: SQLite in ./data/twinspec.db, relative to the working directory. */
export const DEFAULT_DATABASE_URL = "sqlite:./data/twinspec.db";

/** An open, migrated database (`openStore`). */
export interface Store {
  /** the Kysely instance every query runs on (`Kysely<Database>`; an application's tables merged into `Database`) */
  db: Kysely<Database>;
  /** which database it is: the one difference queries may have to care about (`isPostgres(db)` asks the same) */
  dialect: "sqlite" | "postgres";
  /** set on PostgreSQL: the pool and connection settings (the event bus opens its LISTEN connection with them) */
  postgres?: PostgresHandle;
  /** the Idempotency-Key records of REST writes */
  idempotencyKeys: IdempotencyKeys;
  /** closes the database (PostgreSQL: ends the pool); after the app's `close` */
  close(): Promise<void>;
}

/** How `openStore` opens the database; every field is optional. */
export interface StoreOptions {
  /** the application's migrations folder, applied after Twinspec's own (default: src/migrations of the project, if any) */
  migrations?: string;
  /**
   * Called for every query, with what ran and how long it took (tracing).
   *
   * @param event - Kysely's log event: the query, its parameters, its duration in ms, and the error of a failed one
   */
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
  /** PostgreSQL: where a lost idle connection and the probe's down and up are logged; default not logged */
  logger?: Logger;
}

/**
 * Whether a database URL is PostgreSQL's (`postgres://…` or `postgresql://…`); anything else is SQLite's.
 *
 * @param url - a database URL, as DATABASE_URL holds it
 */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

function sqlitePath(url: string): string {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:";
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
  throw new Error(`DATABASE_URL "${url}" is not supported: use sqlite:PATH, sqlite::memory: or postgres://…`);
}

/**
 * Opens the database `url` names and applies pending migrations: Twinspec's own, then the application's. SQLite
 * (`sqlite:PATH`, its folder created; `sqlite::memory:`) in WAL mode with synchronous FULL, or PostgreSQL
 * (`postgres://…`, a pool). Rejects when a migration fails or the URL is neither.
 *
 * @param url - the database URL (default `DEFAULT_DATABASE_URL`, `sqlite:./data/twinspec.db`)
 * @param options - migrations folder, query hooks, PostgreSQL pool and probe (`StoreOptions`); default none
 */
export async function openStore(url: string = DEFAULT_DATABASE_URL, options: StoreOptions = {}): Promise<Store> {
  const { onQuery, countQuery } = options;
  const log = onQuery || countQuery ? (event: LogEvent) => (countQuery?.(), onQuery?.(event)) : undefined;
  const plugins = options.beforeQuery ? [beforeQueryPlugin(options.beforeQuery)] : [];
  if (isPostgresUrl(url)) {
    const { db, handle, statementNames } = await openPostgres(
      url,
      { ...options, onQuery: log, plugins },
      (db, schema) => migrate(db, schema, options.migrations),
    );
    prepareOn(db, { beforeQuery: options.beforeQuery, statementNames, pool: handle.pool, onQuery, countQuery });
    return {
      db,
      dialect: "postgres",
      postgres: handle,
      idempotencyKeys: new IdempotencyKeys(db),
      close: () => db.destroy(),
    };
  }
  const path = sqlitePath(url);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the 2xx that acknowledges it.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
    log,
    plugins,
  });
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
  await migrateWith(
    db,
    { getMigrations: async () => OWN_MIGRATIONS },
    {
      migrationTableSchema: schema,
      migrationTableName: "twinspec_migration",
      migrationLockTableName: "twinspec_migration_lock",
    },
  );
  const app = appMigrations(migrations);
  if (app)
    await migrateWith(db, new FileMigrationProvider({ fs, path, migrationFolder: app }), {
      migrationTableSchema: schema,
    });
}

/** Attempts at a migration that another client's dropped schema failed (`vanishedSchema`). */
const MIGRATION_ATTEMPTS = 3;

/**
 * Whether a migration failed because a schema other than `own` vanished under it: Kysely's Migrator looks for its
 * bookkeeping tables in every schema of the database, each checked by name (has_schema_privilege), so a schema another
 * client drops between the catalog's read and that check fails the lookup with invalid_schema_name (3F000). Nothing
 * has run by then, and the lookup is read-only: the migration is tried again.
 */
function vanishedSchema(error: unknown, own: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "3F000" && typeof message === "string" && !(own && message.includes(`"${own}"`));
}

async function migrateWith(
  db: Kysely<Database>,
  provider: MigrationProvider,
  tables: { migrationTableSchema?: string; migrationTableName?: string; migrationLockTableName?: string },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await new Migrator({ db, provider, ...tables }).migrateToLatest();
    if (!error) return;
    if (attempt < MIGRATION_ATTEMPTS && vanishedSchema(error, tables.migrationTableSchema)) continue;
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

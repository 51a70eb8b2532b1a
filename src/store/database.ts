// Opens the database named by DATABASE_URL and applies migrations. SQLite (better-sqlite3) by default;
// PostgreSQL arrives behind the same Kysely<Database>.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type LogEvent, type MigrationProvider } from "kysely";
import { migrations } from "./migrations.js";
import type { Database } from "./schema.js";

export const DEFAULT_DATABASE_URL = "sqlite:./data/twinspec.db";

export interface Store {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  close(): Promise<void>;
}

export interface StoreOptions {
  /** called for every query, e.g. to count them */
  onQuery?: (event: LogEvent) => void;
}

export function sqlitePath(url: string): string {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:";
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
  throw new Error(`DATABASE_URL "${url}" is not supported: use sqlite:PATH, sqlite::memory: or postgres://…`);
}

export async function openStore(url: string = DEFAULT_DATABASE_URL, options: StoreOptions = {}): Promise<Store> {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    throw new Error("PostgreSQL support is not built yet: use sqlite:PATH or leave DATABASE_URL unset");
  }
  const path = sqlitePath(url);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the 2xx that acknowledges it.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: options.onQuery ? (event) => options.onQuery!(event) : undefined,
  });
  await migrate(db);
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

export async function migrate(db: Kysely<Database>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
}

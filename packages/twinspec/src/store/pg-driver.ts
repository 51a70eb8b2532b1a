// PostgreSQL's driver (pg), loaded when the store opens a postgres:// URL, never by a server on SQLite. The modules
// that use it stay statically imported (one copy of Kysely's classes however they are loaded); only pg waits.
import type Pg from "pg";

let driver: typeof Pg | undefined;

/** Loads pg (once); openPostgres awaits it before anything else touches PostgreSQL. */
export async function loadPg(): Promise<typeof Pg> {
  return (driver ??= (await import("pg")).default);
}

/** pg, once loadPg() has run. */
export function pgDriver(): typeof Pg {
  if (!driver) throw new Error("pg is used before the PostgreSQL store opened (loadPg)");
  return driver;
}

// A fresh, empty database for one test server (or a few sharing it): a new SQLite file, or — with
// TEST_DATABASE=postgres — a new schema in the test database, reached through search_path in the URL, so runs
// and suites never see each other's rows. TEST_POSTGRES_URL names the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Which database a test runs on. */
export type TestDatabaseKind = "sqlite" | "postgres";

/** The database tests run on: "postgres" when TEST_DATABASE=postgres, else "sqlite". */
export const testDatabaseKind = (): TestDatabaseKind =>
  process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** Where the PostgreSQL test schemas are made: TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test (trust auth on our machines and in CI). */
export const testPostgresUrl = () => process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh, empty database (`freshDatabase`). */
export interface TestDatabase {
  /** which database it is */
  kind: TestDatabaseKind;
  /** a DATABASE_URL for openStore or a server process */
  url: string;
  /** removes the file or the schema with everything in it */
  drop(): Promise<void>;
}

/** Schema names carry their creation time, so a later run can sweep what a killed run left behind. */
export const SCHEMA_PREFIX = "t_";
const schemaName = () => `${SCHEMA_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;

/**
 * A fresh, empty database: a new SQLite file in a temporary folder, or a new schema in the PostgreSQL test database
 * (`testPostgresUrl()`), reached through search_path in its URL. Not migrated: openStore or the server does that.
 * `drop()` it when done.
 *
 * @param kind - which database (default `testDatabaseKind()`: TEST_DATABASE)
 */
export async function freshDatabase(kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "twinspec-test-"));
    return {
      kind,
      url: `sqlite:${join(dir, "test.db")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = testPostgresUrl();
  const schema = schemaName();
  await admin(base, `create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return { kind, url: url.toString(), drop: () => admin(base, `drop schema if exists ${schema} cascade`) };
}

async function admin(url: string, statement: string): Promise<void> {
  // pg is an optional peer, as it is the runtime's: an application tested on SQLite alone does not install it.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(statement);
  } catch (error) {
    const { hostname, port, pathname } = new URL(url);
    throw new Error(
      `the PostgreSQL test database ${hostname}:${port || 5432}${pathname} (TEST_POSTGRES_URL) cannot be used for \`${statement}\`: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

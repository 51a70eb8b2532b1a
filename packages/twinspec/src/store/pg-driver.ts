// PostgreSQL's driver (pg), loaded when the store opens a postgres:// URL, never by a server on SQLite. The modules
// that use it stay statically imported (one copy of Kysely's classes however they are loaded); only pg waits.
// pg is an optional peer dependency of twinspec: an application served from SQLite does not install it.
import type { PostgresCursor, PostgresPool, PostgresPoolClient } from "kysely";
import type Pg from "pg";
import { missingPeer, peerInstallLine, PeerNotInstalledError } from "../peers.js";

let driver: typeof Pg | undefined;

/** A postgres:// DATABASE_URL, and no pg installed: the message is the one line that fixes it. */
export class PgNotInstalledError extends PeerNotInstalledError {
  override name = "PgNotInstalledError";
}

/** Loads pg (once); openPostgres awaits it before anything else touches PostgreSQL. */
export async function loadPg(load: () => Promise<{ default: typeof Pg }> = () => import("pg")): Promise<typeof Pg> {
  if (driver) return driver;
  try {
    return (driver = (await load()).default);
  } catch (error) {
    if (!missingPeer(error, /pg/)) throw error;
    const line = peerInstallLine((name) => name === "pg");
    throw new PgNotInstalledError(
      `DATABASE_URL names a PostgreSQL database, but its driver pg is not installed (an optional peer dependency of twinspec): run \`${line}\``,
      { cause: error },
    );
  }
}

/** pg, once loadPg() has run. */
export function pgDriver(): typeof Pg {
  if (!driver) throw new Error("pg is used before the PostgreSQL store opened (loadPg)");
  return driver;
}

/**
 * `client.query(config)` answered through pg's callback, by a promise of ours. Under load, pg's own promise form
 * kept every query's rows alive through young-generation collections, to be promoted and freed only by a full one;
 * through the callback they die young.
 */
function queryOn<Row extends Pg.QueryResultRow = Pg.QueryResultRow>(
  client: Pg.ClientBase,
  config: Pg.QueryConfig,
): Promise<Pg.QueryResult<Row>> {
  return new Promise((resolve, reject) => {
    client.query<Row>(config, (error: Error | undefined, result: Pg.QueryResult<Row>) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** What Kysely's PostgresDialect takes as its pool: each connection's queries run through queryOn. */
export function kyselyPool(pool: { connect(): Promise<Pg.PoolClient>; end(): Promise<void> }): PostgresPool {
  // One facade per connection: Kysely keeps its own per-connection state keyed by the client object it is handed.
  const facades = new WeakMap<Pg.PoolClient, PostgresPoolClient>();
  const facadeOf = (client: Pg.PoolClient): PostgresPoolClient => ({
    query: ((sql: string | PostgresCursor<unknown>, parameters?: readonly unknown[]) =>
      typeof sql === "string"
        ? queryOn(client, { text: sql, values: parameters as unknown[] })
        : client.query(sql as never)) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    connect: async () => {
      const client = await pool.connect();
      let facade = facades.get(client);
      if (!facade) facades.set(client, (facade = facadeOf(client)));
      return facade;
    },
    end: () => pool.end(),
  };
}

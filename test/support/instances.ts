// Several server processes (src/main.ts, as `npm start` runs it) on one fresh database: what runs behind a load
// balancer. Only meaningful on PostgreSQL; suites using it run in the PostgreSQL pass of npm test.
import { freshDatabase, testDatabaseKind, type TestDatabase } from "./database.js";
import type { ServerProcess } from "twinspec-dev/testing";
import { startProcess } from "./process.js";

export const onPostgres = testDatabaseKind() === "postgres";

export interface Instances {
  database: TestDatabase;
  servers: ServerProcess[];
  /** another instance on the same database (e.g. to replace a killed one) */
  add(env?: Record<string, string>): Promise<ServerProcess>;
  /** kills what still runs and drops the database */
  stop(): Promise<void>;
}

export async function startInstances(n: number, env: Record<string, string> = {}): Promise<Instances> {
  const database = await freshDatabase("postgres");
  const servers: ServerProcess[] = [];
  const add = async (extra: Record<string, string> = {}) => {
    const server = await startProcess({ DATABASE_URL: database.url, ...env, ...extra });
    servers.push(server);
    return server;
  };
  // One after another: each migrates (or finds the schema migrated) before the next starts listening.
  for (let i = 0; i < n; i++) await add();
  return {
    database,
    servers,
    add,
    async stop() {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
      await database.drop();
    },
  };
}

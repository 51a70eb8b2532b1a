// A real server for tests: the commerce service's definition on the kit's test server (twinspec/testing): buildApp on
// an ephemeral 127.0.0.1 port, over a fresh database (SQLite file, or a PostgreSQL schema with TEST_DATABASE=postgres).
import { startServer as startTestServer, type TestServer, type TestServerOptions } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

export { call, gql, type TestServer } from "twinspec-dev/testing";

export const startServer = (options: TestServerOptions = {}): Promise<TestServer> =>
  startTestServer(definition, options);

/** Every budget of the specs at `limit` requests a second: a burst meets 429 with a Retry-After of a second at most. */
export const perSecond = (limit: number) => ({
  overrides: Object.fromEntries(
    Object.keys(definition.contract.rateLimits.budgets).map((b) => [b, { limit, window: 1 }]),
  ),
});

export const ada = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };

// The scripts in examples/ run against a real server over real HTTP (and WebSocket), as a user would run them.
import assert from "node:assert/strict";
import { graphqlExample, subscriptionExample } from "../../examples/graphql.js";
import { checkoutExample, restExample } from "../../examples/rest.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("examples/ against a real server", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("examples/rest.ts: create, read, merge-patch with If-Match, list, delete, then 410 and 404 as typed problems", async () => {
    const result = await restExample(server.url, ADMIN_TOKEN);
    assert.match(result.created.customerId, /^\S+$/);
    assert.equal(result.created.email, "ada@example.com");
    assert.equal(result.patchedLastName, "King");
    assert.ok(result.listed.includes(result.created.customerId));
    assert.match(result.afterDelete, /^410 /);
    assert.equal(result.missing.status, 404);
    assert.equal("problem" in result.missing && result.missing.problem.status, 404);
    assert.equal(result.staleStatus, 412, "a stale If-Match is refused");
    assert.match(result.location ?? "", /^\/customers\//);
  });

  it("examples/rest.ts: a checkout's 202 followed by waitFor to its job's end", async () => {
    const customer = await call(`${server.url}/customers`, {
      method: "POST",
      json: { firstName: "Job", lastName: "Runner", email: "job@example.com" },
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const job = await checkoutExample(server.url, ADMIN_TOKEN, customer.json.customerId);
    assert.equal(job.status, "SUCCEEDED");
  });

  it("examples/graphql.ts: typed mutations and queries over HTTP; a deleted customer comes back as an error code", async () => {
    const result = await graphqlExample(`${server.url}/graphql`, ADMIN_TOKEN);
    assert.equal(result.updatedLastName, "Murray Hopper");
    assert.deepEqual(
      { firstName: result.readBack?.firstName, lastName: result.readBack?.lastName, email: result.readBack?.email },
      { firstName: "Grace", lastName: "Murray Hopper", email: "grace@example.com" },
    );
    assert.match(result.afterDelete, /^(GONE|NOT_FOUND)$/);
  });

  it("examples/graphql.ts: a subscription over graphql-ws sees each status change of the customer's order", async () => {
    const { received } = await subscriptionExample(`${server.url}/graphql`, ADMIN_TOKEN);
    assert.deepEqual(
      received.map((e) => e.status),
      ["PAID", "SHIPPED"],
    );
    for (const e of received) assert.ok(!Number.isNaN(Date.parse(e.sentAt)), e.sentAt);
  });
});

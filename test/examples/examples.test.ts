// The scripts in examples/ run against a real server over real HTTP (and WebSocket), as a user would run them.
import assert from "node:assert/strict";
import WebSocket from "ws";
import { graphqlExample, subscriptionExample } from "../../examples/graphql.js";
import { restExample } from "../../examples/rest.js";
import { startServer, type TestServer } from "../support/server.js";

/** Does the server take graphql-ws (graphql-transport-ws) connections on /graphql? */
function acceptsGraphqlWs(url: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = new WebSocket(url.replace(/^http/, "ws"), "graphql-transport-ws");
    socket.on("open", () => {
      done(socket.protocol === "graphql-transport-ws");
      socket.close();
    });
    socket.on("error", () => done(false));
  });
}

describe("examples/ against a real server", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("examples/rest.ts: create, read, merge-patch with If-Match, list, delete, then 410 and 404 as typed problems", async () => {
    const result = await restExample(server.url);
    assert.match(result.created.customerId, /^\S+$/);
    assert.equal(result.created.email, "ada@example.com");
    assert.equal(result.patchedLastName, "King");
    assert.ok(result.listed.includes(result.created.customerId));
    assert.match(result.afterDelete, /^410 /);
    assert.equal(result.missing.status, 404);
    assert.equal(result.missing.problem?.status, 404);
  });

  it("examples/graphql.ts: typed mutations and queries over HTTP; a deleted customer comes back as an error code", async () => {
    const result = await graphqlExample(`${server.url}/graphql`);
    assert.equal(result.updatedLastName, "Murray Hopper");
    assert.deepEqual(
      { firstName: result.readBack?.firstName, lastName: result.readBack?.lastName, email: result.readBack?.email },
      { firstName: "Grace", lastName: "Murray Hopper", email: "grace@example.com" },
    );
    assert.match(result.afterDelete, /^(GONE|NOT_FOUND)$/);
  });

  // Runs as soon as /graphql accepts graphql-ws upgrades (the GraphQL subscriptions work); skipped until then.
  it("examples/graphql.ts: a subscription over graphql-ws sees each status change of the customer's order", async function () {
    if (!(await acceptsGraphqlWs(`${server.url}/graphql`))) this.skip();
    const { received } = await subscriptionExample(`${server.url}/graphql`);
    assert.deepEqual(received.map((e) => e.status), ["PAID", "SHIPPED"]);
    for (const e of received) assert.ok(!Number.isNaN(Date.parse(e.sentAt)), e.sentAt);
  });
});

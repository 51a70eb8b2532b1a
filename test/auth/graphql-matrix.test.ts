// The authorization matrix for GraphQL over every protected root field of schema.graphql, run by the kit
// (twinspec/testing); and what the commerce schema adds to it: a relationship the token may not see.
import assert from "node:assert/strict";
import { describeGraphqlAuthMatrix } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";
import { token } from "../support/auth.js";
import { newCustomer, newOrder } from "../support/fixtures.js";
import { gql, startServer, type TestServer } from "../support/server.js";

describeGraphqlAuthMatrix(definition);

describe("GraphQL authorization of relationships", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("a relationship the token may not see is null with FORBIDDEN; sibling fields stay", async () => {
    const { owner } = await newCustomer(s.url).then(async (c) => ({ owner: c }));
    await newOrder(s.url, owner.customerId);
    const res = await gql(
      s.url,
      `query($id: ID!) { a: customer(customerId: $id) { firstName } b: customer(customerId: $id) { orders { orderId } } }`,
      { id: owner.customerId },
      {
        token: await token(owner.customerId, "customers:read"),
      },
    );
    assert.equal(res.json.data.a.firstName, "Ada");
    assert.equal(res.json.data.b, null);
    assert.equal(res.json.errors[0].extensions.code, "FORBIDDEN");
    assert.deepEqual(res.json.errors[0].path, ["b", "orders"]);
  });
});

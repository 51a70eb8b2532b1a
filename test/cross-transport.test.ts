// One domain, two transports: what one writes, the other reads.
import assert from "node:assert/strict";
import { ada, call, gql, startServer, type TestServer } from "./support/server.js";

describe("REST and GraphQL share one domain", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("a customer created over REST is read over GraphQL", async () => {
    const created = await call(`${s.url}/customers`, { method: "POST", json: ada });
    const res = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { customerId firstName lastName email createdAt updatedAt } }`, {
      id: created.json.customerId,
    });
    assert.deepEqual(res.json.data.customer, created.json);
  });

  it("a customer created over GraphQL is read, changed and deleted over REST, and GraphQL sees each change", async () => {
    const res = await gql(s.url, `mutation { createCustomer(input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" }) { customerId } }`);
    const id = res.json.data.createCustomer.customerId;
    const got = await call(`${s.url}/customers/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.firstName, "Grace");
    await call(`${s.url}/customers/${id}`, { method: "PATCH", body: '{"lastName":"Murray"}', headers: { "content-type": "application/merge-patch+json" } });
    const after = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { lastName } }`, { id });
    assert.equal(after.json.data.customer.lastName, "Murray");
    assert.equal((await call(`${s.url}/customers/${id}`, { method: "DELETE" })).status, 204);
    const gone = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { lastName } }`, { id });
    assert.equal(gone.json.errors[0].extensions.code, "GONE");
  });

  it("an email taken over GraphQL is refused over REST (one rule, one place)", async () => {
    await gql(s.url, `mutation { createCustomer(input: { firstName: "A", lastName: "B", email: "taken@example.com" }) { customerId } }`);
    const res = await call(`${s.url}/customers`, { method: "POST", json: { ...ada, email: "taken@example.com" } });
    assert.equal(res.status, 409);
  });
});

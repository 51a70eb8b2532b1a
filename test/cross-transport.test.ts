// One domain, two transports: what one writes, the other reads.
import assert from "node:assert/strict";
import { ada, call, gql, startServer, type TestServer } from "./support/server.js";

describe("REST and GraphQL share one domain", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it("a customer created over REST is read over GraphQL", async () => {
    const created = await call(`${s.url}/customers`, { method: "POST", json: ada });
    const res = await gql(
      s.url,
      `query($id: ID!) { customer(customerId: $id) { customerId firstName lastName email createdAt updatedAt } }`,
      {
        id: created.json.customerId,
      },
    );
    assert.deepEqual(res.json.data.customer, created.json);
  });

  it("a customer created over GraphQL is read, changed and deleted over REST, and GraphQL sees each change", async () => {
    const res = await gql(
      s.url,
      `mutation { createCustomer(input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" }) { customerId } }`,
    );
    const id = res.json.data.createCustomer.customerId;
    const got = await call(`${s.url}/customers/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.firstName, "Grace");
    await call(`${s.url}/customers/${id}`, {
      method: "PATCH",
      body: '{"lastName":"Murray"}',
      headers: { "content-type": "application/merge-patch+json" },
    });
    const after = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { lastName } }`, { id });
    assert.equal(after.json.data.customer.lastName, "Murray");
    assert.equal((await call(`${s.url}/customers/${id}`, { method: "DELETE" })).status, 204);
    const gone = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { lastName } }`, { id });
    assert.equal(gone.json.errors[0].extensions.code, "GONE");
  });

  it("one input rule, both transports: what REST refuses with 400, GraphQL refuses with BAD_USER_INPUT at the same pointer", async () => {
    const input = { ...ada, firstName: "", email: "not-an-email" };
    const rest = await call(`${s.url}/customers`, { method: "POST", json: input });
    const graphql = await gql(
      s.url,
      `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`,
      { i: input },
    );
    assert.equal(rest.status, 400);
    const errors = graphql.json.errors[0];
    assert.equal(errors.extensions.code, "BAD_USER_INPUT");
    assert.equal(errors.extensions.argument, "input");
    const pointers = (list: { pointer: string; message: string }[]) =>
      list.map((e) => `${e.pointer} ${e.message}`).sort();
    assert.deepEqual(pointers(errors.extensions.invalid), pointers(rest.json.errors));
    const stored = (await call(`${s.url}/customers?limit=100`)).json.items.filter(
      (c: { email: string }) => c.email === input.email,
    );
    assert.deepEqual(stored, [], "nothing was stored by either");
  });
});

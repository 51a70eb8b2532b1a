// Customers over GraphQL: queries, mutations, errors beside partial data, and codes on every error.
import assert from "node:assert/strict";
import { graphql } from "graphql";
import { definition } from "../../generated/wiring.js";
import { buildSchema, loadTypeDefs } from "../../packages/twinspec/src/graphql/schema.js";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";

const CREATE = `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId firstName lastName email createdAt } }`;

describe("GraphQL customers", () => {
  // One server for the file: each test makes the customers it reads, but the paging's, which has one of its own.
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const create = async (input: object = ada, server = s) => {
    const res = await gql(server.url, CREATE, { input });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.errors, undefined, res.text);
    return res.json.data.createCustomer;
  };

  it("createCustomer returns exactly the selected fields; customer() reads it back", async () => {
    const created = await create();
    assert.deepEqual(Object.keys(created), ["customerId", "firstName", "lastName", "email", "createdAt"]);
    const res = await gql(
      s.url,
      `query($id: ID!) { customer(customerId: $id) { firstName email orders { orderId } carts { cartId } } }`,
      { id: created.customerId },
    );
    assert.deepEqual(res.json, { data: { customer: { firstName: "Ada", email: ada.email, orders: [], carts: [] } } });
  });

  it("queries work over GET too", async () => {
    const created = await create();
    const query = encodeURIComponent(`{ customer(customerId: "${created.customerId}") { lastName } }`);
    const res = await call(`${s.url}/graphql?query=${query}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { data: { customer: { lastName: "Lovelace" } } });
  });

  it("customers(first, after) pages in creation order", async () => {
    const own = await startServer();
    try {
      for (let i = 0; i < 3; i++) await create({ ...ada, email: `g${i}@example.com` }, own);
      const first = await gql(own.url, `{ customers(first: 2) { customerId email } }`);
      assert.deepEqual(
        first.json.data.customers.map((c: { email: string }) => c.email),
        ["g0@example.com", "g1@example.com"],
      );
      const after = first.json.data.customers[1].customerId;
      const rest = await gql(own.url, `query($after: ID) { customers(first: 2, after: $after) { email } }`, { after });
      assert.deepEqual(rest.json.data.customers, [{ email: "g2@example.com" }]);
    } finally {
      await own.close();
    }
  });

  it("updateCustomer changes only the given fields; deleteCustomer then customer() → null + GONE", async () => {
    const { customerId } = await create();
    const upd = await gql(
      s.url,
      `mutation($id: ID!) { updateCustomer(customerId: $id, input: { lastName: "King" }) { firstName lastName } }`,
      { id: customerId },
    );
    assert.deepEqual(upd.json.data.updateCustomer, { firstName: "Ada", lastName: "King" });
    const del = await gql(s.url, `mutation($id: ID!) { deleteCustomer(customerId: $id) }`, { id: customerId });
    assert.deepEqual(del.json.data, { deleteCustomer: customerId });
    const gone = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { firstName } }`, { id: customerId });
    assert.deepEqual(gone.json.data, { customer: null });
    assert.equal(gone.json.errors[0].extensions.code, "GONE");
  });

  it("a failing field yields errors beside the rest of data (partial result)", async () => {
    const { customerId } = await create();
    const res = await gql(
      s.url,
      `query($id: ID!) { ok: customer(customerId: $id) { firstName } missing: customer(customerId: "nobody") { firstName } }`,
      { id: customerId },
    );
    assert.deepEqual(res.json.data, { ok: { firstName: "Ada" }, missing: null });
    assert.equal(res.json.errors.length, 1);
    assert.deepEqual(res.json.errors[0].path, ["missing"]);
    assert.equal(res.json.errors[0].extensions.code, "NOT_FOUND");
  });

  it("invalid mutation input → BAD_USER_INPUT naming each bad field, nothing stored", async () => {
    const res = await gql(s.url, CREATE, { input: { firstName: "", lastName: "L", email: "nope" } });
    assert.equal(res.json.data.createCustomer, null);
    assert.equal(res.json.errors[0].extensions.code, "BAD_USER_INPUT");
    assert.deepEqual(
      res.json.errors[0].extensions.invalid.map((e: { pointer: string }) => e.pointer),
      ["/firstName", "/email"],
    );
    const list = await gql(s.url, `{ customers(first: 100) { email } }`);
    assert.deepEqual(
      list.json.data.customers.filter((c: { email: string }) => c.email === "nope"),
      [],
    );
  });

  it("updateCustomer with null for a required field → BAD_USER_INPUT, no change", async () => {
    const { customerId } = await create();
    const res = await gql(
      s.url,
      `mutation($id: ID!) { updateCustomer(customerId: $id, input: { email: null }) { email } }`,
      { id: customerId },
    );
    assert.equal(res.json.errors[0].extensions.code, "BAD_USER_INPUT");
    const now = await gql(s.url, `query($id: ID!) { customer(customerId: $id) { email } }`, { id: customerId });
    assert.equal(now.json.data.customer.email, ada.email);
  });

  it("wrong variable type, unknown field and syntax errors carry codes", async () => {
    const variable = await gql(s.url, CREATE, { input: { firstName: 1 } });
    assert.equal(variable.status, 400);
    assert.equal(variable.json.errors[0].extensions.code, "BAD_USER_INPUT");
    const unknown = await gql(s.url, `{ customers { shoeSize } }`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
    const syntax = await gql(s.url, `{ customers { `);
    assert.equal(syntax.status, 400);
    assert.equal(syntax.json.errors[0].extensions.code, "GRAPHQL_PARSE_FAILED");
  });

  it("root fields without a resolver answer NOT_IMPLEMENTED (the whole schema is reachable)", async () => {
    const schema = buildSchema(definition, `${loadTypeDefs()}\nextend type Query { notYet: Int }`);
    const result = await graphql({ schema, source: "{ notYet }" });
    assert.deepEqual({ ...result.data }, { notYet: null });
    assert.equal(result.errors?.[0].extensions.code, "NOT_IMPLEMENTED");
  });

  it("introspection describes the schema", async () => {
    const res = await gql(s.url, `{ __type(name: "Customer") { fields { name } } }`);
    const names = res.json.data.__type.fields.map((f: { name: string }) => f.name);
    assert.deepEqual(names, [
      "customerId",
      "firstName",
      "lastName",
      "email",
      "createdAt",
      "updatedAt",
      "orders",
      "carts",
    ]);
  });
});

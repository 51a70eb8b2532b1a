// The mock server's GraphQL side, walked over every root field of schema.graphql: each answers data of its type
// (every field selected, to a few levels), with the arguments it was given echoed; the same @auth, argument
// checks and limits as the real server; subscriptions get a mocked event at every tick.
import assert from "node:assert/strict";
import { getNamedType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLField, type GraphQLOutputType } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN, token } from "../support/auth.js";
import { startMockServer, type MockServer } from "../support/mock.js";
import { gql } from "../support/server.js";
import { argumentValues, graphqlSchema as schema, resources } from "../support/spec.js";

const ids = Object.fromEntries(Object.values(resources).map((r) => [r.id, `${r.idPrefix}_mock`]));

/** A selection of every field of `type`, objects to `depth` levels (their leaves only below that). */
function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return "";
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)) && (isLeafType(getNamedType(f.type)) || depth > 0));
  return ` { ${fields.map((f) => `${f.name}${selection(f.type, depth - 1)}`).join(" ")} }`;
}

/** `value` has the shape of `type`: non-null where required, lists as lists, objects with every selected field. */
function shapeErrors(type: GraphQLOutputType, value: unknown, path: string): string[] {
  if (value === null) return isNonNullType(type) ? [`${path} is null`] : [];
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable)) return Array.isArray(value) ? value.flatMap((v, i) => shapeErrors(nullable.ofType, v, `${path}[${i}]`)) : [`${path} is not a list`];
  if (isObjectType(nullable)) {
    if (typeof value !== "object") return [`${path} is not an object`];
    return Object.entries(value as object).flatMap(([k, v]) => shapeErrors(nullable.getFields()[k].type, v, `${path}.${k}`));
  }
  return typeof value === "object" ? [`${path} is not a ${nullable}`] : [];
}

const roots = (["Query", "Mutation"] as const).flatMap((root) => Object.values((root === "Query" ? schema.getQueryType() : schema.getMutationType())!.getFields()).map((field) => ({ root, field })));

function operation(root: string, field: GraphQLField<unknown, unknown>) {
  const values = argumentValues(root, field, ids);
  const args = field.args.filter((a) => a.name in values);
  const declared = args.map((a) => `$${a.name}: ${a.type}`).join(", ");
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(", ");
  return { query: `${root === "Query" ? "query" : "mutation"}${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""}${selection(field.type, 3)} }`, variables: values };
}

describe("mock server: GraphQL (every root field of schema.graphql)", () => {
  let s: MockServer;
  before(async () => (s = await startMockServer({ eventIntervalMs: 50 })));
  after(() => s.close());

  for (const { root, field } of roots) {
    it(`${root}.${field.name} answers data of its type, echoing its arguments`, async () => {
      const { query, variables } = operation(root, field);
      const res = await gql(s.url, query, variables);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.errors, undefined, JSON.stringify(res.json.errors));
      const data = res.json.data[field.name];
      assert.notEqual(data, null, `${field.name} answered null`);
      assert.deepEqual(shapeErrors(field.type, data, field.name), []);
      const type = getNamedType(field.type);
      const key = Object.values(resources).find((r) => r.schema === type.name)?.id;
      if (key && key in variables && !isListType(isNonNullType(field.type) ? field.type.ofType : field.type)) assert.equal(data[key], variables[key], `${key} echoed`);
      if (type.name === "ID") assert.equal(data, Object.values(variables)[0], "the ID argument echoed");
      for (const [name, value] of Object.entries(variables)) if (isObjectType(type) && name in type.getFields() && name !== key) assert.deepEqual(data[name], value);
    });
  }

  it("answers consistently: the same id, the same object; a navigation to a resource follows the id its parent carries", async () => {
    const query = `{ order(orderId: "ord_1") { orderId customerId total customer { customerId firstName } } }`;
    const first = await gql(s.url, query);
    assert.deepEqual((await gql(s.url, query)).json, first.json);
    assert.equal(first.json.data.order.customer.customerId, first.json.data.order.customerId);
    const job = await gql(s.url, `{ job(jobId: "job_1") { status result { orderId order { orderId } } error { title } } }`);
    assert.deepEqual(job.json.data.job, { status: "SUCCEEDED", result: { orderId: "ord_0mhdd7k4p003abcdefgh", order: { orderId: "ord_0mhdd7k4p003abcdefgh" } }, error: null }, "the REST example, where a type pairs with a schema");
    const created = await gql(s.url, `mutation { createCustomer(input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" }) { firstName lastName email } }`);
    assert.deepEqual(created.json.data.createCustomer, { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" });
  });

  it("authorizes, checks arguments and limits as the real server", async () => {
    const anonymous = await gql(s.url, `{ customer(customerId: "cus_1") { customerId } }`, undefined, { token: "" });
    assert.deepEqual([anonymous.json.data.customer, anonymous.json.errors[0].extensions.code], [null, "UNAUTHENTICATED"]);
    const reader = await token("cus_1", "customers:read");
    const scoped = await gql(s.url, `{ customer(customerId: "cus_1") { customerId orders { orderId } } }`, undefined, { token: reader });
    assert.equal(scoped.json.data.customer, null, "orders needs orders:read, and Customer.orders is non-null");
    assert.deepEqual(scoped.json.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path.join("."), e.extensions.code]), [["customer.orders", "FORBIDDEN"]]);
    const everyone = await gql(s.url, `{ customers { customerId } }`, undefined, { token: reader });
    assert.deepEqual(everyone.json.errors.map((e: { extensions: { code: string } }) => e.extensions.code), ["FORBIDDEN"], "every customer's data needs admin");
    const own = await gql(s.url, `{ order(orderId: "ord_1") { orderId } }`, undefined, { token: await token("cus_1", "orders:read") });
    assert.deepEqual(own.json, { data: { order: { orderId: "ord_1" } } }, "no data says whose an order is: it is the caller's");
    const bad = await gql(s.url, `mutation { placeOrder(customerId: "cus_1", input: { items: [{ sku: "B", quantity: 0, unitPrice: 1 }] }) { orderId } }`);
    assert.equal(bad.json.errors[0].extensions.code, "BAD_USER_INPUT");
    assert.deepEqual(bad.json.errors[0].extensions.invalid.map((i: { pointer: string }) => i.pointer), ["/items/0/quantity"]);
    const deep = `{ customer(customerId: "c") { orders { customer { orders { customer { orders { customer { orders { customer { orders { customer { customerId } } } } } } } } } } } }`;
    assert.equal((await gql(s.url, deep)).json.errors[0].extensions.code, "DEPTH_LIMIT_EXCEEDED");
    const badToken = await gql(s.url, `{ __typename }`, undefined, { token: "nope" });
    assert.equal(badToken.status, 401);
  });

  const SUBSCRIBE = `subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId customerId status sentAt } }`;
  type Change = { orderId: string; customerId: string; status: string; sentAt: string };

  it("Subscription.orderStatusChanged: a mocked event at every tick, over graphql-ws and graphql-sse", async () => {
    const ws = createWsClient({ url: `${s.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const sse = createSseClient({ url: `${s.url}/graphql/stream`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, retryAttempts: 0 });
    try {
      for (const client of [ws, sse]) {
        const got: Change[] = [];
        for await (const result of client.iterate({ query: SUBSCRIBE, variables: { c: "cus_7" } })) {
          assert.equal(result.errors, undefined, JSON.stringify(result.errors));
          got.push((result.data as { orderStatusChanged: Change }).orderStatusChanged);
          if (got.length === 2) break;
        }
        assert.deepEqual(got.map((c) => c.customerId), ["cus_7", "cus_7"]);
        assert.ok(got.every((c) => c.orderId && c.status === "PENDING" && !Number.isNaN(Date.parse(c.sentAt))), JSON.stringify(got));
      }
    } finally {
      await ws.dispose();
      sse.dispose();
    }
  });

  it("Subscription: the same @auth (a token lacking orders:read is refused)", async () => {
    const ws = createWsClient({ url: `${s.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { authorization: `Bearer ${await token("cus_7", "customers:read")}` } });
    try {
      const results = [];
      for await (const result of ws.iterate({ query: SUBSCRIBE, variables: { c: "cus_7" } })) results.push(result);
      assert.deepEqual(results.map((r) => [r.data ?? null, r.errors?.map((e) => (e.extensions as { code: string }).code)]), [[null, ["FORBIDDEN"]]]);
    } finally {
      await ws.dispose();
    }
  });
});

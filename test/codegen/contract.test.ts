// contract.ts: what the two specs state together — resources, scopes, pairing, ownership, where each resolver lives —
// read from the real specs, and every gap named when a spec is edited into inconsistency.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { readContract } from "../../packages/twinspec/src/codegen/contract.js";
import { collectOperations } from "../../packages/twinspec/src/codegen/operations.js";
import { checkAgreement } from "../../packages/twinspec/src/codegen/spec-agreement.js";
import { agreementConfig } from "../../packages/twinspec/src/codegen/spec-agreement.config.js";
import type { JsonObject } from "../../packages/twinspec/src/codegen/spec.js";

const restText = readFileSync("openapi.yaml", "utf8");
const sdlText = readFileSync("schema.graphql", "utf8");

function read(editRest: (doc: any) => void = () => {}, editSdl: (sdl: string) => string = (s) => s) {
  const doc = parse(restText) as JsonObject;
  editRest(doc);
  const sdl = editSdl(sdlText);
  const { restProperties } = checkAgreement(doc, sdl, agreementConfig);
  return readContract(doc, collectOperations(doc, "openapi.yaml"), sdl, (t) => restProperties.get(t));
}
const messages = (r: ReturnType<typeof read>) => r.problems.map((p) => p.message);

describe("the contract of openapi.yaml and schema.graphql", () => {
  it("reads the real specs without a problem: resources, scopes, pairs", () => {
    const { contract, problems } = read();
    assert.deepEqual(problems, []);
    const found = contract.resources.map((r) => `${r.tag}:${r.schema}:${r.id}:${r.idPrefix}:${r.owner}:${r.path}`);
    for (const known of [
      "customers:Customer:customerId:cus:self:/customers/{customerId}",
      "orders:Order:orderId:ord:customerId:/orders/{orderId}",
      "carts:Cart:cartId:crt:customerId:/carts/{cartId}",
      "jobs:Job:jobId:job:customerId:/jobs/{jobId}",
    ]) {
      assert.ok(found.includes(known), `${known} in ${found.join(", ")}`);
    }
    assert.ok("admin" in contract.scopes && "orders:write" in contract.scopes);
    assert.equal(contract.operations.get("updateOrder")!.graphql, "Mutation.updateOrderStatus");
    assert.equal(contract.operations.get("putCustomer")!.graphql, undefined);
  });

  it("ownership: the first path parameter or argument naming an owned resource, else the whole collection", () => {
    const { contract } = read();
    assert.deepEqual(contract.operations.get("getOrder")!.ownership, { kind: "instance", resource: "orders", from: "orderId" });
    assert.deepEqual(contract.operations.get("placeOrder")!.ownership, { kind: "instance", resource: "customers", from: "customerId" });
    assert.deepEqual(contract.operations.get("listCustomers")!.ownership, { kind: "collection", resource: "customers" });
    const field = (c: string) => contract.fields.find((f) => f.coordinate === c)!;
    assert.deepEqual(field("Mutation.replaceCartItems").ownership, { kind: "instance", resource: "carts", from: "cartId" });
    assert.deepEqual(field("Mutation.createCustomer").ownership, { kind: "collection", resource: "customers" });
  });

  it("a resource nobody owns needs no ownership check", () => {
    const { contract, problems } = read((doc) => (doc.tags[1]["x-resource"].owner = "none"));
    assert.deepEqual(problems, []);
    assert.deepEqual(contract.operations.get("getOrder")!.ownership, { kind: "none" });
  });

  it("places every resolver in a tag's file: paired fields with their operation, others with their type", () => {
    const { contract } = read();
    const where = Object.fromEntries(contract.fields.map((f) => [f.coordinate, f.tag]));
    assert.equal(where["Customer.orders"], "orders");
    assert.equal(where["Customer.carts"], "carts");
    assert.equal(where["Order.customer"], "orders");
    assert.equal(where["JobResult.order"], "jobs");
    assert.equal(where["Mutation.checkoutCart"], "carts");
    assert.equal(where["Subscription.orderStatusChanged"], "orders");
    assert.equal(where["Customer.email"], undefined, "a field the domain object carries needs no resolver");
  });

  it("shares input rules with the paired operation: ids like path parameters, the input like the body", () => {
    const { contract } = read();
    const input = (c: string) => contract.fields.find((f) => f.coordinate === c)!.input;
    assert.deepEqual(input("Mutation.placeOrder"), { operationId: "placeOrder", pathArgs: ["customerId"], body: { contentType: "application/json", arg: "input" } });
    assert.deepEqual(input("Mutation.updateOrderStatus"), { operationId: "updateOrder", pathArgs: ["orderId"], body: { contentType: "application/merge-patch+json", args: ["status"] } });
  });

  const broken: [string, (doc: any) => void, (sdl: string) => string, RegExp][] = [
    ["an operation neither paired nor declared REST-only", (doc) => delete doc.paths["/jobs/{jobId}"].get["x-graphql"], (s) => s, /getJob is not paired: add x-graphql/],
    ["a root field no operation pairs with", (doc) => {
      delete doc.paths["/jobs/{jobId}"].get["x-graphql"];
      doc.paths["/jobs/{jobId}"].get["x-unpaired"] = "testing";
    }, (s) => s, /Query\.job is not paired/],
    ["x-graphql naming a field that does not exist", (doc) => (doc.paths["/jobs/{jobId}"].get["x-graphql"] = "Query.jobs"), (s) => s, /x-graphql names Query\.jobs, which schema\.graphql does not have/],
    ["a field paired twice", (doc) => (doc.paths["/orders/{orderId}"].get["x-graphql"] = "Query.job"), (s) => s, /Query\.job is already paired with/],
    ["a scope no scheme declares (REST)", (doc) => (doc.paths["/jobs/{jobId}"].get.security = [{ bearerAuth: ["jobs:read"] }]), (s) => s, /asks for scope "jobs:read", which no security scheme's x-scopes declares/],
    ["a scope no scheme declares (GraphQL)", () => {}, (s) => s.replace('job(jobId: ID!): Job @auth(scopes: ["orders:read"])', 'job(jobId: ID!): Job @auth(scopes: ["jobs:read"])'), /@auth asks for scope "jobs:read"/],
    ["an owner that is not a property", (doc) => (doc.tags[1]["x-resource"].owner = "buyerId"), (s) => s, /owner must be "none" or a property of Order, not "buyerId"/],
    ["an operation without a tag", (doc) => delete doc.paths["/jobs/{jobId}"].get.tags, (s) => s, /getJob has no tag/],
    ["a GraphQL-only root field with no home", () => {}, (s) => s.replace("type Query {", 'type Query {\n  ping: String @unpaired(reason: "health")'), /cannot tell which tag's file holds the resolver of Query\.ping/],
  ];
  for (const [name, editRest, editSdl, expected] of broken) {
    it(`names ${name}`, () => {
      const found = messages(read(editRest, editSdl));
      assert.ok(found.some((m) => expected.test(m)), found.join("\n"));
    });
  }
});

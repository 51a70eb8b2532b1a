// spec-agreement.ts: pairs of fixture specs, each disagreeing in known ways; every mismatch must be named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkAgreement, formatAgreement, type AgreementConfig } from "../../packages/twinspec/src/codegen/spec-agreement.js";
import { agreementConfig } from "../../packages/twinspec/src/codegen/spec-agreement.config.js";
import { loadDocument } from "../../packages/twinspec/src/codegen/spec.js";

const DIR = "packages/twinspec/test/fixtures/agreement";
const config = (): AgreementConfig => ({ scalars: agreementConfig.scalars });
const load = (name: string) => ({ rest: loadDocument(`${DIR}/${name}.openapi.yaml`), sdl: readFileSync(`${DIR}/${name}.graphql`, "utf8") });
const run = (name: string, edit: (sdl: string) => string = (s) => s) => {
  const { rest, sdl } = load(name);
  return checkAgreement(rest, edit(sdl), config());
};
const named = (name: string, edit?: (sdl: string) => string) => run(name, edit).mismatches.map((m) => `${m.kind} ${m.at}`).sort();

describe("spec agreement", () => {
  it("finds nothing when the specs agree, and compares same-name and operation-linked (x-graphql) pairs", () => {
    const { mismatches, compared, restProperties } = run("agree");
    assert.deepEqual(mismatches, []);
    assert.deepEqual(compared.sort(), ["Customer", "CustomerInput ↔ CreateCustomerInput", "CustomerPatch ↔ UpdateCustomerInput", "Status"]);
    assert.deepEqual([...restProperties.get("Customer")!].sort(), ["createdAt", "customerId", "email", "nickname", "score", "secret", "status", "tags", "vip", "visits"]);
  });

  it("a difference is only allowed where a spec declares it (@unpaired / x-unpaired)", () => {
    // Order is then reached through a paired type, and pairs with nothing either.
    assert.deepEqual(named("agree", (sdl) => sdl.replace(' @unpaired(reason: "navigation")', "")), ["missing-in-rest Customer.orders", "unpaired Order"]);
  });

  it("a type a paired operation reaches that pairs with nothing, and is not declared unpaired, is named", () => {
    const extra = (sdl: string) => sdl.replace("input UpdateCustomerInput { email: String }", "input UpdateCustomerInput { email: String, address: Address }\ninput Address { city: String }");
    assert.deepEqual(named("agree", extra), ["missing-in-rest UpdateCustomerInput.address", "unpaired Address"]);
  });

  const cases: [string, string[]][] = [
    ["field-names", ["missing-in-graphql Customer.email", "missing-in-rest Customer.emailAddress"]],
    ["nullability", ["nullability Customer.firstName", "nullability Customer.lastName", "nullability Customer.nickname", "nullability Customer.tags[]"]],
    ["scalars", ["type Customer.createdAt", "type Customer.customerId", "type Customer.score", "type Customer.updatedAt", "type Customer.vip", "type Customer.visits"]],
    ["lists", ["list Customer.email", "list Customer.tags"]],
    ["enums", ["enum-values Order.channel", "enum-values OrderStatus", "type Order.priority"]],
    ["inputs", ["nullability CreateCustomerInput.email", "nullability UpdateCustomerInput.firstName"]],
    ["nested", ["missing-in-graphql OrderResult.orderUrl", "missing-in-rest OrderResult.orderId", "type OrderLine.quantity"]],
  ];
  for (const [name, expected] of cases) {
    it(`${name}: names ${expected.length} mismatch(es)`, () => assert.deepEqual(named(name), expected));
  }

  it("says what each side says, enum values included", () => {
    const text = formatAgreement(run("enums").mismatches);
    assert.match(text, /disagree \(3\)/);
    assert.match(text, /OrderStatus: enum values differ\n\s+REST\s+OrderStatus: PENDING, PAID, REFUNDED \(only in REST: REFUNDED; only in GraphQL: ON_HOLD\)\n\s+GraphQL OrderStatus: PENDING, PAID, ON_HOLD/);
    assert.match(text, /Order\.priority: type differs\n\s+REST\s+Order\.priority: enum \[LOW, HIGH\]\n\s+GraphQL Order\.priority: String \(string\)/);
    const scalars = formatAgreement(run("scalars").mismatches);
    assert.match(scalars, /REST\s+Customer\.createdAt: string\n\s+GraphQL Customer\.createdAt: DateTime \(string, date-time\)/);
    assert.match(scalars, /REST\s+Customer\.visits: integer\n\s+GraphQL Customer\.visits: Float \(number\)/);
  });

  it("the real openapi.yaml and schema.graphql agree", () => {
    const { mismatches, compared } = checkAgreement(loadDocument("openapi.yaml"), readFileSync("schema.graphql", "utf8"), agreementConfig);
    assert.deepEqual(mismatches, [], formatAgreement(mismatches));
    for (const pair of ["Customer", "Order", "Cart", "Job", "OrderStatus", "JobStatus", "CustomerInput ↔ CreateCustomerInput", "CustomerPatch ↔ UpdateCustomerInput"]) {
      assert.ok(compared.includes(pair), `${pair} compared`);
    }
  });
});

// spec-agreement.ts: pairs of fixture specs, each disagreeing in known ways; every mismatch must be named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkAgreement, formatAgreement, type AgreementConfig } from "../../src/codegen/spec-agreement.js";
import { agreementConfig } from "../../src/codegen/spec-agreement.config.js";
import { loadDocument } from "../../src/codegen/spec.js";

const DIR = "test/fixtures/agreement";
const config = (over: Partial<AgreementConfig> = {}): AgreementConfig => ({ pairs: {}, intended: {}, scalars: agreementConfig.scalars, ...over });
const run = (name: string, cfg = config()) => checkAgreement(loadDocument(`${DIR}/${name}.openapi.yaml`), readFileSync(`${DIR}/${name}.graphql`, "utf8"), cfg);
const named = (name: string, cfg?: AgreementConfig) => run(name, cfg).mismatches.map((m) => `${m.kind} ${m.at}`).sort();

describe("spec agreement", () => {
  const agreeConfig = config({ pairs: { CustomerPatch: "UpdateCustomerInput" }, intended: { "Customer.orders": "navigation" } });

  it("finds nothing when the specs agree, and compares same-name, operation-linked and declared pairs", () => {
    const { mismatches, compared } = run("agree", agreeConfig);
    assert.deepEqual(mismatches, []);
    assert.deepEqual(compared.sort(), ["Customer", "CustomerInput ↔ CreateCustomerInput", "CustomerPatch ↔ UpdateCustomerInput", "Status"]);
  });

  it("an intended difference is only allowed where it is declared", () => {
    assert.deepEqual(named("agree", config({ pairs: agreeConfig.pairs })), ["missing-in-rest Customer.orders"]);
  });

  const cases: [string, string[], Partial<AgreementConfig>?][] = [
    ["field-names", ["missing-in-graphql Customer.email", "missing-in-rest Customer.emailAddress"]],
    ["nullability", ["nullability Customer.firstName", "nullability Customer.lastName", "nullability Customer.nickname", "nullability Customer.tags[]"]],
    ["scalars", ["type Customer.createdAt", "type Customer.customerId", "type Customer.score", "type Customer.updatedAt", "type Customer.vip", "type Customer.visits"]],
    ["lists", ["list Customer.email", "list Customer.tags"]],
    ["enums", ["enum-values Order.channel", "enum-values OrderStatus", "type Order.priority"]],
    ["inputs", ["nullability CreateCustomerInput.email", "nullability UpdateCustomerInput.firstName"], { pairs: { CustomerPatch: "UpdateCustomerInput" } }],
    ["nested", ["missing-in-graphql OrderResult.orderUrl", "missing-in-rest OrderResult.orderId", "type OrderLine.quantity"]],
  ];
  for (const [name, expected, over] of cases) {
    it(`${name}: names ${expected.length} mismatch(es)`, () => assert.deepEqual(named(name, config(over)), expected));
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

  it("a declaration that matches nothing is stale, so the list cannot rot", () => {
    const cfg = config({ ...agreeConfig, intended: { ...agreeConfig.intended, "Customer.nickname2": "gone" }, pairs: { ...agreeConfig.pairs, Nope: "Customer" } });
    assert.deepEqual(named("agree", cfg), ["stale-declaration Customer", "stale-declaration Customer.nickname2"]);
  });

  it("the real openapi.yaml and schema.graphql agree under spec-agreement.config.ts", () => {
    const { mismatches, compared } = checkAgreement(loadDocument("openapi.yaml"), readFileSync("schema.graphql", "utf8"), agreementConfig);
    assert.deepEqual(mismatches, [], formatAgreement(mismatches));
    for (const pair of ["Customer", "Order", "Cart", "Job", "OrderStatus", "JobStatus", "CustomerInput ↔ CreateCustomerInput", "CustomerPatch ↔ UpdateCustomerInput"]) {
      assert.ok(compared.includes(pair), `${pair} compared`);
    }
  });
});

// spec-agreement.ts: pairs of fixture specs, each disagreeing in known ways; every mismatch must be named.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkAgreement, formatAgreement, type AgreementConfig } from "../../../src/codegen/check/spec-agreement.js";
import { agreementConfig } from "../../../src/codegen/check/spec-agreement.config.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const DIR = "test/fixtures/agreement";
const config = (): AgreementConfig => ({ scalars: agreementConfig.scalars });
const load = (name: string) => ({
  rest: loadDocument(`${DIR}/${name}.openapi.yaml`),
  sdl: readFileSync(`${DIR}/${name}.graphql`, "utf8"),
});
const run = (name: string, edit: (sdl: string) => string = (s) => s) => {
  const { rest, sdl } = load(name);
  return checkAgreement(rest, edit(sdl), config());
};
const named = (name: string, edit?: (sdl: string) => string) =>
  run(name, edit)
    .mismatches.map((m) => `${m.kind} ${m.at}`)
    .sort();

describe("spec agreement", () => {
  it("finds nothing when the specs agree, and compares same-name and operation-linked (x-graphql) pairs", () => {
    const { mismatches, compared, restProperties } = run("agree");
    assert.deepEqual(mismatches, []);
    assert.deepEqual(compared.sort(), [
      "Curator",
      "CuratorInput ↔ CreateCuratorInput",
      "CuratorPatch ↔ UpdateCuratorInput",
      "Status",
    ]);
    assert.deepEqual([...restProperties.get("Curator")!].sort(), [
      "createdAt",
      "curatorId",
      "email",
      "nickname",
      "score",
      "secret",
      "status",
      "tags",
      "vip",
      "visits",
    ]);
  });

  it("readOnly written beside a $ref leaves the property out of the input pair, as readOnly inline does", () => {
    const { rest, sdl } = load("agree");
    const input = (rest.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas
      .CuratorInput;
    input.properties.status = { $ref: "#/components/schemas/Status", readOnly: true };
    assert.deepEqual(checkAgreement(rest, sdl, config()).mismatches, []);
    input.properties.status = { $ref: "#/components/schemas/Status" };
    assert.deepEqual(
      checkAgreement(rest, sdl, config()).mismatches.map((m) => `${m.kind} ${m.at}`),
      ["missing-in-graphql CreateCuratorInput.status"],
    );
  });

  it("a difference is only allowed where a spec declares it (@unpaired / x-unpaired)", () => {
    // Order is then reached through a paired type, and pairs with nothing either.
    assert.deepEqual(
      named("agree", (sdl) => sdl.replace(' @unpaired(reason: "navigation")', "")),
      ["missing-in-rest Curator.orders", "unpaired Order"],
    );
  });

  it("a type a paired operation reaches that pairs with nothing, and is not declared unpaired, is named", () => {
    const extra = (sdl: string) =>
      sdl.replace(
        "input UpdateCuratorInput { email: String }",
        "input UpdateCuratorInput { email: String, address: Address }\ninput Address { city: String }",
      );
    assert.deepEqual(named("agree", extra), ["missing-in-rest UpdateCuratorInput.address", "unpaired Address"]);
  });

  const cases: [string, string[]][] = [
    ["field-names", ["missing-in-graphql Curator.email", "missing-in-rest Curator.emailAddress"]],
    [
      "nullability",
      [
        "nullability Curator.firstName",
        "nullability Curator.lastName",
        "nullability Curator.nickname",
        "nullability Curator.tags[]",
      ],
    ],
    [
      "scalars",
      [
        "type Curator.createdAt",
        "type Curator.curatorId",
        "type Curator.score",
        "type Curator.updatedAt",
        "type Curator.vip",
        "type Curator.visits",
      ],
    ],
    ["lists", ["list Curator.email", "list Curator.tags"]],
    ["enums", ["enum-values Order.channel", "enum-values OrderStatus", "type Order.priority"]],
    ["inputs", ["nullability CreateCuratorInput.email", "nullability UpdateCuratorInput.firstName"]],
    [
      "nested",
      ["missing-in-graphql OrderResult.orderUrl", "missing-in-rest OrderResult.orderId", "type OrderLine.quantity"],
    ],
  ];
  for (const [name, expected] of cases) {
    it(`${name}: names ${expected.length} mismatch(es)`, () => assert.deepEqual(named(name), expected));
  }

  it("says what each side says, enum values included", () => {
    const text = formatAgreement(run("enums").mismatches);
    assert.match(text, /disagree \(3\)/);
    assert.match(
      text,
      /OrderStatus: enum values differ\n\s+REST\s+OrderStatus: PENDING, PAID, REFUNDED \(only in REST: REFUNDED; only in GraphQL: ON_HOLD\)\n\s+GraphQL OrderStatus: PENDING, PAID, ON_HOLD/,
    );
    assert.match(
      text,
      /Order\.priority: type differs\n\s+REST\s+Order\.priority: enum \[LOW, HIGH\]\n\s+GraphQL Order\.priority: String \(string\)/,
    );
    const scalars = formatAgreement(run("scalars").mismatches);
    assert.match(
      scalars,
      /REST\s+Curator\.createdAt: string\n\s+GraphQL Curator\.createdAt: DateTime \(string, date-time\)/,
    );
    assert.match(scalars, /REST\s+Curator\.visits: integer\n\s+GraphQL Curator\.visits: Float \(number\)/);
  });

  it("an application's real openapi.yaml and schema.graphql agree (the fixture's)", () => {
    const { mismatches, compared } = checkAgreement(
      loadDocument(join(FIXTURE, "openapi.yaml")),
      readFileSync(join(FIXTURE, "schema.graphql"), "utf8"),
      agreementConfig,
    );
    assert.deepEqual(mismatches, [], formatAgreement(mismatches));
    for (const pair of [
      "Author",
      "Note",
      "AuthorInput ↔ CreateAuthorInput",
      "NoteInput ↔ CreateNoteInput",
      "NotePatch ↔ UpdateNoteInput",
    ]) {
      assert.ok(compared.includes(pair), `${pair} compared`);
    }
  });
});

// How a scenario step runs in a workflow's GraphQL run (scenario-graphql.ts), read from the fixture's specs: through
// its operation's paired root field, or over REST with the reason GraphQL cannot say it; and which GraphQL codes the
// framework's table answers a status with.
import assert from "node:assert/strict";
import { definition } from "../../../twinspec/test/fixture/generated/wiring.js";
import type { Step } from "../../src/testing/arazzo.js";
import { codesOf, graphqlPlan } from "../../src/testing/scenario-graphql.js";
import { specOf } from "../../src/testing/spec.js";

const spec = specOf(definition);
const plan = (step: Omit<Step, "stepId">) => {
  const op = spec.operations.find((o) => o.operationId === step.operationId)!;
  const p = graphqlPlan(spec, definition, op, { stepId: "s", ...step });
  return p.over === "graphql" ? `GraphQL ${p.coordinate}` : `REST: ${p.why}`;
};
const status = (n: number) => [{ condition: `$statusCode == ${n}` }];

describe("scenarios over GraphQL: how each step runs", () => {
  const cases: [string, Omit<Step, "stepId">, string][] = [
    [
      "a paired mutation, its body the input argument",
      { operationId: "createAuthor", requestBody: { payload: { name: "Ada" } }, successCriteria: status(201) },
      "GraphQL Mutation.createAuthor",
    ],
    [
      "a paired query, a path parameter its argument, a status with a code (410: GONE)",
      {
        operationId: "getNote",
        parameters: [{ name: "noteId", in: "path", value: "n" }],
        successCriteria: [...status(410), { condition: "$response.body#/title == 'x'" }],
      },
      "GraphQL Query.note",
    ],
    ["an unpaired operation", { operationId: "writeNote" }, "REST: writeNote has no GraphQL pair (x-unpaired)"],
    [
      "a paired operation that is a type's field, not a root field",
      { operationId: "listAuthorNotes", parameters: [{ name: "authorId", in: "path", value: "a" }] },
      "REST: listAuthorNotes pairs with Author.notes, no root field of Query or Mutation",
    ],
    [
      "a header parameter",
      {
        operationId: "patchNote",
        parameters: [
          { name: "noteId", in: "path", value: "n" },
          { name: "If-Match", in: "header", value: '"v1"' },
        ],
      },
      "REST: it sends the header If-Match, which Mutation.updateNote has no argument for",
    ],
    [
      "a status GraphQL has no code for",
      {
        operationId: "getNote",
        parameters: [{ name: "noteId", in: "path", value: "n" }],
        successCriteria: status(304),
      },
      "REST: it asks for 304, which GraphQL answers with no code",
    ],
    [
      "an output read from a response header",
      { operationId: "createAuthor", outputs: { etag: "$response.header.ETag" } },
      "REST: it reads a response header, which a GraphQL field has none of",
    ],
    [
      "a criterion on a property the GraphQL type does not have",
      {
        operationId: "getNote",
        parameters: [{ name: "noteId", in: "path", value: "n" }],
        successCriteria: [{ condition: "$response.body#/etag == 'x'" }],
      },
      "REST: it reads /etag, which the type Note has no field etag",
    ],
  ];
  for (const [what, step, expected] of cases) it(what, () => assert.equal(plan(step), expected));

  it("a status reads as the codes the framework's error table gives it", () => {
    assert.deepEqual(codesOf(409), ["CONFLICT"]);
    assert.deepEqual(codesOf(412), ["CONFLICT"]);
    assert.deepEqual(codesOf(404), ["NOT_FOUND"]);
    assert.deepEqual(codesOf(410), ["GONE", "EVENTS_EXPIRED"]);
    assert.deepEqual(codesOf(304), []);
  });
});

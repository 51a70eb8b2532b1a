// workflows.ts: what generate checks of workflows.arazzo.yaml against the fixture's openapi.yaml. The kit's own
// fixture workflows pass; each defect is named with its position in the file (line:column) and its JSON pointer.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkWorkflows, formatWorkflowProblem } from "../../../src/codegen/check/workflows.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const openapi = loadDocument(join(FIXTURE, "openapi.yaml"));
const operations = collectOperations(structuredClone(openapi), "openapi.yaml");
const dir = mkdtempSync(join(tmpdir(), "twinspec-workflows-"));

/** The findings on a workflows file of these steps (one workflow, `w`), as printed, without the file's name. */
async function check(steps: string, inputs = "") {
  const file = join(dir, "workflows.arazzo.yaml");
  writeFileSync(
    file,
    `arazzo: 1.0.1
info: { title: t, version: 1.0.0 }
sourceDescriptions:
  - { name: api, url: ./openapi.yaml, type: openapi }
workflows:
  - workflowId: w
${inputs}    steps:
${steps}`,
  );
  const report = await checkWorkflows(file, operations, openapi);
  return report!.problems.map((p) => formatWorkflowProblem("", p).slice(1));
}

const author = `      - stepId: author
        operationId: createAuthor
        requestBody: { payload: { name: Ada } }
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { authorId: $response.body#/authorId }
`;

describe("generate's check of workflows.arazzo.yaml", () => {
  it("the kit's fixture workflows agree with the specs", async () => {
    for (const name of ["notes", "wrong"]) {
      const report = await checkWorkflows(`test/fixtures/workflows/${name}.arazzo.yaml`, operations, openapi);
      assert.deepEqual(report?.problems, [], name);
    }
  });

  it("no workflows file: nothing to check", async () => {
    assert.equal(await checkWorkflows(join(dir, "none.arazzo.yaml"), operations, openapi), undefined);
  });

  const cases: [string, string, string[], string?][] = [
    [
      "a step that is valid in every respect",
      `${author}      - stepId: read
        operationId: getAuthor
        parameters: [{ name: authorId, in: path, value: $steps.author.outputs.authorId }, { name: if-none-match, in: header, value: x }]
        successCriteria: [{ condition: $statusCode == 200 }, { condition: "$response.body#/name == 'Ada'" }]
`,
      [],
    ],
    [
      "an unknown operationId",
      `      - stepId: s
        operationId: createAuthr
`,
      [
        '9:22: step s: operationId "createAuthr" is not an operation of openapi.yaml (#/workflows/0/steps/0/operationId)',
      ],
    ],
    [
      "a status the operation does not declare",
      `${author}      - stepId: read
        operationId: getAuthor
        parameters: [{ name: authorId, in: path, value: $steps.author.outputs.authorId }]
        successCriteria: [{ condition: $statusCode == 410 }]
`,
      [
        "16:40: step read: getAuthor does not declare 410 (it declares 200, 304, 400, 401, 403, 404, 406, 408, 414, 429, 431, 500, 503) (#/workflows/0/steps/1/successCriteria/0/condition)",
      ],
    ],
    [
      "a criterion on a body field the answer does not have",
      `${author}      - stepId: read
        operationId: getAuthor
        parameters: [{ name: authorId, in: path, value: $steps.author.outputs.authorId }]
        successCriteria: [{ condition: $statusCode == 200 }, { condition: "$response.body#/title == 'x'" }]
`,
      [
        "16:75: step read: getAuthor: $response.body#/title is not in the body of its 200 answer (#/workflows/0/steps/1/successCriteria/1/condition)",
      ],
    ],
    [
      "an output of a body field the answer does not have, and one of a 204 that has no body",
      `      - stepId: author
        operationId: createAuthor
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { id: $response.body#/id }
      - stepId: gone
        operationId: deleteNote
        parameters: [{ name: noteId, in: path, value: n }]
        successCriteria: [{ condition: $statusCode == 204 }]
        outputs: { noteId: $response.body#/noteId }
`,
      [
        "11:24: step author: createAuthor: $response.body#/id is not in the body of its 201 answer (#/workflows/0/steps/0/outputs/id)",
        "16:28: step gone: deleteNote: $response.body#/noteId is read, but 204 has no body (#/workflows/0/steps/1/outputs/noteId)",
      ],
    ],
    [
      "pointers into a list's items",
      `      - stepId: page
        operationId: listAuthorNotes
        parameters: [{ name: authorId, in: path, value: a }, { name: limit, in: query, value: 2 }]
        successCriteria: [{ condition: "$response.body#/items/0/title == 'x'" }]
        outputs: { first: $response.body#/items/0/noteId, wrong: $response.body#/items/0/author }
`,
      [
        "12:66: step page: listAuthorNotes: $response.body#/items/0/author is not in the body of its 200 answer (#/workflows/0/steps/0/outputs/wrong)",
      ],
    ],
    [
      "parameters the operation does not declare, by name or by place",
      `      - stepId: read
        operationId: getAuthor
        parameters: [{ name: authorId, in: query, value: a }, { name: bogus, in: path, value: b }]
`,
      [
        "10:30: step read: getAuthor has no query parameter authorId (it declares: path authorId, header If-None-Match, header If-Modified-Since) (#/workflows/0/steps/0/parameters/0/name)",
        "10:71: step read: getAuthor has no path parameter bogus (it declares: path authorId, header If-None-Match, header If-Modified-Since) (#/workflows/0/steps/0/parameters/1/name)",
      ],
    ],
    [
      "$steps expressions naming no step, a step after this one, or no output of the step",
      `${author}      - stepId: read
        operationId: getAuthor
        parameters:
          - { name: authorId, in: path, value: $steps.autor.outputs.authorId }
        successCriteria: [{ condition: $response.body#/authorId == $steps.author.outputs.id }]
        outputs: { later: $steps.last.outputs.x }
      - stepId: last
        operationId: getAuthor
        parameters: [{ name: authorId, in: path, value: $steps.author.outputs.authorId }]
`,
      [
        "16:48: step read: $steps.autor names no step of workflow w (#/workflows/0/steps/1/parameters/0/value)",
        "17:40: step read: step author has no output id (its outputs: authorId) (#/workflows/0/steps/1/successCriteria/0/condition)",
        "18:27: step read: $steps.last names a step that runs after this one; only earlier steps' outputs exist (#/workflows/0/steps/1/outputs/later)",
      ],
    ],
    [
      "$inputs naming no input of the workflow",
      `      - stepId: author
        operationId: createAuthor
        requestBody: { payload: { name: $inputs.nam } }
`,
      ["11:41: step author: $inputs.nam: workflow w has no input nam (#/workflows/0/steps/0/requestBody/payload/name)"],
      `    inputs: { type: object, properties: { name: { type: string } } }
`,
    ],
    [
      "what Redocly's Arazzo lint finds: an unknown property, a repeated stepId",
      `      - stepId: s
        operationId: createAuthor
        bogus: 1
      - stepId: s
        operationId: createAuthor
`,
      [
        "10:9: Property `bogus` is not expected here. (#/workflows/0/steps/0/bogus)",
        "11:9: The `stepId` must be unique amongst all steps described in the workflow. [stepId-unique] (#/workflows/0/steps/1)",
      ],
    ],
  ];
  for (const [what, steps, expected, inputs] of cases)
    it(what, async () => assert.deepEqual((await check(steps, inputs)).sort(), expected));
});

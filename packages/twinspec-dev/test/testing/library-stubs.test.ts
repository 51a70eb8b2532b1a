// Stubs are pending everywhere: an operation added to the library application's specs (renewLoan, paired with
// Mutation.renewLoan) and regenerated, its stubs left as generate wrote them, and a workflow that renews a loan.
// The API walk, both authorization matrices, the status walks, the scenarios and both fuzzers report it pending,
// never as a failure, and the coverage gate waits for it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { libraryCopy, runLibrary } from "./library-support.js";

const RENEW = `  /loans/{loanId}/renew:
    parameters:
      - $ref: "#/components/parameters/loanId"
    post:
      operationId: renewLoan
      tags: [loans]
      summary: Renew a loan for another two weeks
      x-graphql: Mutation.renewLoan
      security: [{ bearerAuth: ["library:write"] }]
      responses:
        "200":
          description: The loan, due later
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Loan" }
${[
  "400 BadRequest",
  "401 Unauthorized",
  "403 Forbidden",
  "404 NotFound",
  "406 NotAcceptable",
  "409 AlreadyReturned",
  "500 InternalError",
  "503 ServiceUnavailable",
  "408 RequestTimeout",
  "414 UriTooLong",
  "431 HeadersTooLarge",
]
  .map((r) => r.split(" "))
  .map(([status, name]) => `        "${status}": { $ref: "#/components/responses/${name}" }\n`)
  .join("")}
`;

const RENEWED = `
  - workflowId: loanRenewed
    summary: a loan renewed is due later
    steps:
      - stepId: addBook
        operationId: addBook
        requestBody: { payload: { title: Flush, copies: 1 } }
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { bookId: $response.body#/bookId }
      - stepId: join
        operationId: createMember
        requestBody: { payload: { name: Elizabeth } }
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { memberId: $response.body#/memberId }
      - stepId: borrow
        operationId: borrowBook
        parameters: [{ name: memberId, in: path, value: $steps.join.outputs.memberId }]
        requestBody: { payload: { bookId: $steps.addBook.outputs.bookId } }
        successCriteria: [{ condition: $statusCode == 201 }]
        outputs: { loanId: $response.body#/loanId }
      - stepId: renew
        operationId: renewLoan
        parameters: [{ name: loanId, in: path, value: $steps.borrow.outputs.loanId }]
        successCriteria: [{ condition: $statusCode == 200 }]
`;

describe("an operation added and left a stub is pending everywhere", function () {
  this.timeout(900_000);
  let app: ReturnType<typeof libraryCopy>;
  before(() => (app = libraryCopy("stub")));
  after(() => app?.remove());

  it("walks, matrices, status walks, scenarios and fuzzers report renewLoan pending; the gate waits", () => {
    app.edit("openapi.yaml", /^ {2}\/books:\n/m, `${RENEW}  /books:\n`);
    app.edit(
      "schema.graphql",
      '  returnLoan(loanId: ID!): Loan @auth(scopes: ["library:write"])\n',
      '  returnLoan(loanId: ID!): Loan @auth(scopes: ["library:write"])\n  renewLoan(loanId: ID!): Loan @auth(scopes: ["library:write"])\n',
    );
    app.edit("workflows.arazzo.yaml", /\n?$/, RENEWED);
    const generated = spawnSync(process.execPath, [resolve("bin/twinspec.js"), "generate"], {
      cwd: app.dir,
      encoding: "utf8",
    });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
    assert.match(generated.stdout, /wrote src\/rest\/loans\.ts \(stubs: renewLoan\)/);
    assert.match(generated.stdout, /wrote src\/graphql\/loans\.ts \(stubs: Mutation\.renewLoan\)/);

    // A fixed seed: the REST fuzzer meets renewLoan on every run of the same code.
    const { status, output } = runLibrary(app.dir, { env: { FUZZ_SEED: "40" } });
    assert.equal(status, 0, output);
    assert.doesNotMatch(output, /^\s+\d+ failing$/m, output);
    assert.doesNotMatch(output, /failed with 501|a 501/, output);
    for (const pending of [
      // the API walk
      /^\s+- renewLoan \(POST \/loans\/\{loanId\}\/renew\)$/m,
      /not yet implemented \(stubs answer 501 \/ NOT_IMPLEMENTED; pending above\): renewLoan, Mutation\.renewLoan/,
      // both authorization matrices
      /^\s+- renewLoan \(POST \/loans\/\{loanId\}\/renew, needs library:write, /m,
      /^\s+- Mutation\.renewLoan \(needs library:write\)$/m,
      // the status walks the stub answers
      /^\s+- renewLoan: an unknown loanId → 404$/m,
      /^\s+- renewLoan: an unexpected failure → 500 with only a request id$/m,
      // the scenario that renews a loan
      /^\s+- loanRenewed: a loan renewed is due later$/m,
      // the REST fuzzer
      /not yet implemented \(answered as stubs, pending, not fuzzed\): renewLoan$/m,
      // the gate
      /the gate applies once nothing is a stub; not yet implemented: .*\brenewLoan\b/,
      /^\s+- every declared \(operation, status\) pair was produced by a step that asked for it$/m,
    ])
      assert.match(output, pending, output);
    // What the stub does not reach is walked as ever: the framework answers it before the handler runs.
    assert.match(output, /✔ renewLoan: a malformed loanId → 400 naming it/, output);
  });
});

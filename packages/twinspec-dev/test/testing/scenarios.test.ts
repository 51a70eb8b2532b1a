// Scenarios written as Arazzo 1.0 workflows run against a real server over REST, then over GraphQL (each step through
// its operation's paired root field; a step GraphQL cannot say over REST within that run): outputs pass between
// steps, runtime expressions fill parameters and bodies, success criteria are checked, and a step that asks for a
// status counts toward the coverage gate; a workflow that expects what the application does not do fails naming the
// workflow, the step, the transport, the criterion and the request.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

const run = (file: string, env: Record<string, string> = {}) =>
  childMocha({
    file: "test/testing/scenario-run.ts",
    root: FIXTURE,
    env: { ARAZZO_FILE: resolve("test/fixtures/workflows", file), ...env },
    timeout: 90_000,
  });

describe("scenarios: Arazzo workflows run by the kit", function () {
  this.timeout(120_000);

  it("a workflow passes step by step, and the statuses its steps asked for count toward the gate", () => {
    const { status, output } = run("notes.arazzo.yaml");
    assert.equal(status, 0, output);
    assert.match(
      output,
      /over REST\n\s+✔ noteWrittenThenDeleted: an author writes a note, deletes it, and the note is gone/,
    );
    // Over GraphQL the unpaired step goes over REST, and what it wrote is deleted and read as GONE over GraphQL.
    assert.match(
      output,
      /✔ noteWrittenThenDeleted: an author writes a note, deletes it, and the note is gone \(over REST: write: writeNote has no GraphQL pair \(x-unpaired\)\)/,
    );
    // A workflow with no step GraphQL can say is not run twice, and says why.
    assert.match(
      output,
      /- authorTagged: no step runs over GraphQL \(newAuthor: it reads a response header, which a GraphQL field has none of\)/,
    );
    assert.match(output, /3 passing/);
    assert.doesNotMatch(output, /left: (createAuthor 201|getNote 410|deleteNote 204):/, output);
  });

  it("a criterion not met fails on each transport, naming the workflow, the step, the transport, the criterion and the request; the status got does not count", () => {
    const { status, output } = run("wrong.arazzo.yaml");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /scenario readMissingAuthor, step readAsMissing \(getAuthor, over REST\): criterion "\$statusCode == 404" not met: GET \/authors\/aut_[\w-]+ → 200 \{/,
      output,
    );
    assert.match(
      output,
      /scenario readMissingAuthor, step readAsMissing \(getAuthor, over GraphQL: Query\.author\): criterion "\$statusCode == 404" not met: POST \/graphql query\(\$authorId: ID!\) \{ author\(authorId: \$authorId\) \{ authorId name [^}]*\} \} \{"authorId":"aut_[\w-]+"\} → read as 200 \{"data":\{"author":\{"authorId"/,
      output,
    );
    assert.match(output, /2 failing/);
    assert.match(output, /left: getAuthor 404: produced by no test/, output);
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });

  it("a bug of GraphQL's alone fails the GraphQL run only: a field answering another value, an error answered with another code", () => {
    const name = run("notes.arazzo.yaml", { PLANT: "name" });
    assert.notEqual(name.status, 0, name.output);
    assert.match(name.output, /over REST\n\s+✔ noteWrittenThenDeleted/, name.output);
    assert.match(
      name.output,
      /scenario noteWrittenThenDeleted, step newAuthor \(createAuthor, over GraphQL: Mutation\.createAuthor\): criterion "\$response\.body#\/name == 'Ada Lovelace'" not met: POST \/graphql mutation\(\$input: CreateAuthorInput!\) \{ createAuthor\(input: \$input\) \{[^}]*\} \} \{"input":\{"name":"Ada Lovelace"\}\} → read as 201 \{"data":\{"createAuthor":\{[^}]*"name":"ADA LOVELACE"/,
      name.output,
    );
    const code = run("notes.arazzo.yaml", { PLANT: "code" });
    assert.notEqual(code.status, 0, code.output);
    assert.match(
      code.output,
      /scenario noteWrittenThenDeleted, step readDeleted \(getNote, over GraphQL: Query\.note\): criterion "\$statusCode == 410" not met: POST \/graphql query\(\$noteId: ID!\) \{ note\(noteId: \$noteId\) \{[^]*?\} \{"noteId":"[\w-]+"\} → NOT_FOUND \(read as 404\)/,
      code.output,
    );
    for (const { output } of [name, code]) {
      assert.match(output, /2 passing/, output);
      assert.match(output, /1 failing/, output);
    }
  });
});

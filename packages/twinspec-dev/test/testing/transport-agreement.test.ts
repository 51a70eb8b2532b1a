// Two transports, one truth: the fixture's REST collection listAuthorNotes and its GraphQL relation Author.notes list
// the same notes in the same order; a relation that lists one item fewer fails, naming the relation, the operation,
// the parent and both lists.
import assert from "node:assert/strict";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

const run = (env: Record<string, string>) =>
  childMocha({ file: "test/testing/one-fewer.ts", root: FIXTURE, env, testTimeout: 60_000 });

describe("two transports, one truth", function () {
  this.timeout(240_000);

  it("the fixture's collection and relation agree", () => {
    const { status, output } = run({});
    assert.equal(status, 0, output);
    assert.match(output, /listAuthorNotes \(GET \/authors\/\{authorId\}\/notes\) and Author\.notes/);
  });

  it("a relation listing one item fewer fails, naming the relation, the operation, the parent and both lists", () => {
    const { status, output } = run({ ONE_FEWER: "1" });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /Author\.notes and listAuthorNotes \(GET \/authors\/aut_[\w-]+\/notes\?limit=100\) list other notes for authorId aut_[\w-]+: GraphQL \(query .*\) lists \["not_[\w-]+","not_[\w-]+"\], REST \["not_[\w-]+","not_[\w-]+","not_[\w-]+"\]/,
      output,
    );
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });
});

// Bugs planted in a copy of the library application (test/apps/library), each caught by the kit's one line with a
// message that names it: the operation, the property or step, the request that shows it, and the seed where there
// is one; never a stack frame from inside the kit. Each run is the application's own test in a child mocha, limited
// with --grep to the parts that catch the bug.
import assert from "node:assert/strict";
import { LIBRARY, libraryCopy, runLibrary } from "./library-support.js";

/** A frame of a stack trace inside this package (its src/, its tests or its dist/). */
const KIT_FRAME = /^\s*at .*twinspec-dev[/\\].*:\d+(:\d+)?\)?$/m;

describe("bugs planted in the library application, each named by the kit", function () {
  this.timeout(600_000);
  const copies: { remove(): void }[] = [];
  after(() => {
    for (const copy of copies) copy.remove();
  });
  const copy = (name: string) => {
    const made = libraryCopy(name);
    copies.push(made);
    return made;
  };

  it("a GraphQL relation that lists one item fewer than its REST collection: the relation, the operation, the parent and both lists", () => {
    const app = copy("one-fewer");
    app.edit(
      "src/domain/loans.ts",
      "return groupBy(memberIds, rows, (r) => r.member_id, toLoan);",
      "return new Map([...groupBy(memberIds, rows, (r) => r.member_id, toLoan)].map(([id, loans]) => [id, loans.slice(0, -1)]));",
    );
    const { status, output } = runLibrary(app.dir, { grep: "^two transports" });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /Member\.loans and listMemberLoans \(GET \/members\/mem_[\w-]+\/loans\?limit=100\) list other loans for memberId mem_[\w-]+: GraphQL \(query .*\) lists \[("lon_[\w-]+",?){3}\], REST \[("lon_[\w-]+",?){4}\]/,
      output,
    );
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });

  it("a domain 409 that no scenario reaches: the gate names the pair, and what produced it if anything did", () => {
    const app = copy("unreached-409");
    // Both 409 steps of the workflows taken out: returning a loan twice, and borrowing the last copy's book.
    app.edit("workflows.arazzo.yaml", /\n {6}- stepId: returnAgain\n(?: {8}.*\n)+/, "\n");
    app.edit("workflows.arazzo.yaml", /\n {6}- stepId: graceRefused\n(?: {8}.*\n)+/, "\n");
    const { status, output } = runLibrary(app.dir, { grep: "^(declared statuses|scenarios|per-status coverage)" });
    assert.notEqual(status, 0, output);
    assert.match(output, /✔ loanReturnedTwice: /, "the workflows still pass");
    assert.match(output, /^returnLoan 409: produced by no test; no step asked for it$/m, output);
    // The status walk's Idempotency-Key 409 is the framework's, not the "no copy left" the spec declares.
    assert.match(
      output,
      /^borrowBook 409: produced only the framework's Idempotency-Key in-flight 409, not the application's own \(status walk: borrowBook: an Idempotency-Key still in flight\); no step asked for it$/m,
      output,
    );
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });

  it("an optional field left out of a REST response: the write-read round trip names the operation and the property", () => {
    const app = copy("dropped-field");
    app.edit("src/rest/books.ts", "  ...(b.isbn !== undefined ? { isbn: b.isbn } : {}),\n", "");
    const { status, output } = runLibrary(app.dir, { grep: "round trip" });
    assert.notEqual(status, 0, output);
    assert.match(output, /addBook[\s\S]*isbn|isbn[\s\S]*addBook/, output);
    assert.match(output, /getBook/, output);
    assert.match(output, /seed \d+/, output);
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });

  it("an optional input field not stored: the write-read round trip names the operation and the property", () => {
    const app = copy("unstored-input");
    app.edit("src/domain/members.ts", "email: input.email ?? null,", "email: null,");
    const { status, output } = runLibrary(app.dir, { grep: "round trip" });
    assert.notEqual(status, 0, output);
    assert.match(output, /createMember[\s\S]*email|email[\s\S]*createMember/, output);
    assert.match(output, /seed \d+/, output);
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });

  it("a test database that cannot be reached: each part's hook says which and why, its causes without a stack", () => {
    const { status, output } = runLibrary(LIBRARY, {
      grep: "^(declared statuses|REST authorization matrix)",
      env: { TEST_DATABASE: "postgres", TEST_POSTGRES_URL: "postgres://127.0.0.1:1/test" },
    });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /"before all" hook for "[^"]+":\n\s+Error: the PostgreSQL test database 127\.0\.0\.1:1\/test \(TEST_POSTGRES_URL\) cannot be used for `create schema t_\w+`: connect ECONNREFUSED/,
      output,
    );
    assert.match(output, /Caused by: Error: connect ECONNREFUSED 127\.0\.0\.1:1\n/, output);
    // No second failure from an "after all" hook closing a server that never started.
    assert.doesNotMatch(output, /"after all" hook/, output);
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });

  it("a handler that fails: each part names the operation, the step and the request, the fuzzer its seed and replay; no stack from inside the kit", () => {
    const app = copy("failing-handler");
    app.edit(
      "src/rest/books.ts",
      "  async getBook(req, { services }) {\n",
      '  async getBook(req, { services }) {\n    if (req.params.bookId) throw new Error("the shelf is on fire");\n',
    );
    // Through tsx, as its own npm test runs it: the fuzzer's replay names the TypeScript test file.
    const { status, output } = runLibrary(app.dir, {
      grep: "^(the API, walked|REST authorization matrix|declared statuses|fuzz: REST)",
      typescript: true,
    });
    assert.notEqual(status, 0, output);
    // The API walk: the operation and the request.
    assert.match(output, /getBook failed with 500 \(a server error\): GET \/books\/bok_[\w-]+ → 500 \{/, output);
    // The authorization matrix: the operation, the request and the token.
    assert.match(
      output,
      /the right token, expected neither 401, 403 nor 5xx: getBook \(GET \/books\/bok_[\w-]+\) with the token of "[^"]+" with scopes "[^"]*" answered 500/,
      output,
    );
    // A status walk, whose assertion names only the answer: the request it sent is added.
    assert.match(
      output,
      /getBook: an unknown bookId → 404:[\s\S]*?the last request: GET \/books\/nothing_here → 500 \{/,
      output,
    );
    // The fuzzer: the operation, the request, the seed and how to replay it.
    assert.match(
      output,
      /fuzz: REST, seed (\d+): getBook failed with 500 \(a server error\): getBook: (GET|HEAD) \/books\//,
      output,
    );
    assert.match(
      output,
      /Replay: FUZZ_SEED=\d+ FUZZ_PATH=[\d:]+ npx mocha test\/api\.test\.ts --grep "fuzz: REST"/,
      output,
    );
    assert.doesNotMatch(output, KIT_FRAME, "no stack frame from inside the kit");
  });
});

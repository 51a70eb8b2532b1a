// stubs.ts: `npm run generate` writes a stub for each operation, resolver and resource module that has none, into
// the right file, and never changes what is written there already.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runSpecChecks } from "../../../src/codegen/check/spec-checks.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";
import { syncStubs } from "../../../src/codegen/emit/stubs.js";
import { domainNeeds, emitWiring, tagsWithFiles } from "../../../src/codegen/emit/contract-emitter.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

describe("stubs in the hand-written files", () => {
  const { contract } = runSpecChecks({
    openapi: join(FIXTURE, "openapi.yaml"),
    graphql: join(FIXTURE, "schema.graphql"),
    cwd: FIXTURE,
  });
  const doc = loadDocument(join(FIXTURE, "openapi.yaml"));
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "stubs-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => readFileSync(join(root, path), "utf8");

  it("writes each tag's REST, GraphQL and domain files whole when they are missing, then nothing more", () => {
    const first = syncStubs(contract, doc, { root });
    const tags = tagsWithFiles(contract);
    const expected = [
      ...tags.domain.map((t) => `src/domain/${t}.ts`),
      ...tags.graphql.map((t) => `src/graphql/${t}.ts`),
      ...tags.rest.map((t) => `src/rest/${t}.ts`),
      "src/graphql/scalars.ts",
      "src/graphql/loaders.ts",
    ];
    assert.deepEqual(
      first
        .filter((c) => c.created)
        .map((c) => c.file)
        .sort(),
      expected.sort(),
    );
    for (const file of ["src/domain/notes.ts", "src/graphql/notes.ts", "src/rest/authors.ts"])
      assert.ok(expected.includes(file));
    assert.match(
      file("src/rest/notes.ts"),
      /export const handlers: HandlersByTag\["notes"\] = \{\n  async listNotes\(\) \{\n    throw new NotImplementedError\("listNotes"\);/,
    );
    assert.match(file("src/graphql/notes.ts"), /Subscription: \{\n    noteChanged: \{\n      subscribe: \(\) => \{/);
    assert.match(
      file("src/domain/notes.ts"),
      /export interface Note \{\n  noteId: string;[\s\S]*async ownerOf\(noteId: string\)/,
    );
    assert.match(
      file("src/domain/notes.ts"),
      /  version: number;\n\}/,
      "an ETag-answering resource's model gets the version its ETag is made from",
    );
    assert.doesNotMatch(file("src/domain/authors.ts"), /ownerOf/, "an author owns itself");
    assert.match(
      file("src/graphql/scalars.ts"),
      /import \{ DateTime \} from "twinspec";[\s\S]*export const scalars: ScalarResolvers = \{\n  DateTime,\n\};/,
    );
    assert.match(file("src/graphql/loaders.ts"), /export function createLoaders\(services: Services\)/);
    assert.deepEqual(syncStubs(contract, doc, { root }), [], "a second run changes nothing");
  });

  it("adds only the missing members to an existing file, keeping every byte already there", () => {
    syncStubs(contract, doc, { root });
    const rest = file("src/rest/notes.ts")
      .replace(/  async deleteNote\(\) \{\n[^}]*\},\n/, "")
      .replace("async getNote() {", "async getNote() {\n    // mine");
    writeFileSync(join(root, "src/rest/notes.ts"), rest);
    const graphql = file("src/graphql/notes.ts")
      .replace(/  Subscription: \{[\s\S]*?\n  \},\n/, "")
      .replace(/    note: \(\) => \{[^}]*\},\n/, "");
    writeFileSync(join(root, "src/graphql/notes.ts"), graphql);
    const changes = syncStubs(contract, doc, { root });
    assert.deepEqual(
      changes.map((c) => `${c.file}: ${c.added.join(", ")}`),
      ["src/rest/notes.ts: deleteNote", "src/graphql/notes.ts: Query.note, Subscription.noteChanged"],
    );
    assert.ok(
      file("src/rest/notes.ts").startsWith(rest.slice(0, rest.lastIndexOf("};"))),
      "what was there is kept as it was",
    );
    assert.match(file("src/rest/notes.ts"), /\/\/ mine/);
    assert.match(
      file("src/rest/notes.ts"),
      /async deleteNote\(\) \{\n    throw new NotImplementedError\("deleteNote"\);\n  \},\n\};\n$/,
    );
    assert.match(file("src/graphql/notes.ts"), /Subscription: \{\n    noteChanged/);
  });

  it("a REST file whose handlers are all written (no NotImplementedError import left) gets the import with a new stub", () => {
    syncStubs(contract, doc, { root });
    const written = file("src/rest/notes.ts")
      .replace(/  async deleteNote\(\) \{\n[^}]*\},\n/, "")
      .replace(/^import \{ NotImplementedError \}[^\n]*\n/m, "")
      .replace(/throw new NotImplementedError\("(\w+)"\);/g, "return undefined as never;");
    assert.doesNotMatch(written, /NotImplementedError/);
    writeFileSync(join(root, "src/rest/notes.ts"), written);
    syncStubs(contract, doc, { root });
    assert.match(file("src/rest/notes.ts"), /^import \{ NotImplementedError \}/m);
    assert.match(file("src/rest/notes.ts"), /throw new NotImplementedError\("deleteNote"\)/);
  });

  it("with check, only reports", () => {
    const changes = syncStubs(contract, doc, { root, check: true });
    const tags = tagsWithFiles(contract);
    assert.equal(
      changes.length,
      tags.domain.length + tags.graphql.length + tags.rest.length + 2,
      "and scalars.ts, loaders.ts",
    );
    assert.throws(() => readFileSync(join(root, "src/rest/notes.ts")));
  });

  it("says what to do with a file whose handlers object it cannot find", () => {
    syncStubs(contract, doc, { root });
    writeFileSync(join(root, "src/rest/authors.ts"), "export const somethingElse = 1;\n");
    assert.throws(
      () => syncStubs(contract, doc, { root }),
      /src\/rest\/authors\.ts has no `export const handlers = \{ … \}`/,
    );
  });

  it("an application's own files (the fixture's) have every stub (generate -- --check fails otherwise)", () => {
    assert.deepEqual(syncStubs(contract, doc, { check: true, root: FIXTURE }), []);
  });
});

// The library specs (test/fixtures/library): list relations (Member.loans, Loan.renewals), lookups through relations
// (Loan.member, Loan.book), a child owned through its parent (renewals under loans) and an event stream.
describe("domain stubs: every method the wiring asks of a service", () => {
  const LIBRARY = fileURLToPath(new URL("../../fixtures/library", import.meta.url));
  const { contract, failed, problems } = runSpecChecks({
    openapi: join(LIBRARY, "openapi.yaml"),
    graphql: join(LIBRARY, "schema.graphql"),
    cwd: LIBRARY,
  });
  const doc = loadDocument(join(LIBRARY, "openapi.yaml"));
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "stubs-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => readFileSync(join(root, path), "utf8");
  const methods = (source: string) => [...source.matchAll(/^  async (\w+)\(/gm)].map((m) => m[1]);

  it("the library specs are valid", () => assert.equal(failed, false, problems.join("\n")));

  it("asks each service for what its resource is to the others, and the wiring asks exactly that", () => {
    const needs = Object.fromEntries([...domainNeeds(contract)].map(([tag, list]) => [tag, list.map((n) => n.method)]));
    assert.deepEqual(needs, {
      members: ["getMany"], // Loan.member names one
      books: ["getMany"], // Loan.book names one (nullable)
      loans: ["ownerOf", "get", "listByParents"], // owned through memberId; the parent of renewals; Member.loans lists them
      renewals: ["parentOf", "listByParents"], // owned through its loan; Loan.renewals lists them
    });
    const wiring = emitWiring(contract, new Map());
    assert.match(
      wiring,
      /made satisfies \{ members: GetMany<membersDomain\.Member>; books: GetMany<booksDomain\.Book>; loans: OwnerOf & Lookup & ListByParents<loansDomain\.Loan>; renewals: ParentOf & ListByParents<renewalsDomain\.Renewal> \}/,
    );
    assert.match(
      domainNeeds(contract)
        .get("loans")!
        .find((n) => n.method === "listByParents")!.why,
      /Member\.loans lists it under a parent/,
    );
  });

  it("writes each new domain module with a throwing stub of each, and imports NotImplementedError only where one throws", () => {
    const changes = syncStubs(contract, doc, { root });
    for (const [tag, list] of domainNeeds(contract)) {
      const source = file(`src/domain/${tag}.ts`);
      assert.deepEqual(
        methods(source),
        list.map((n) => n.method),
        tag,
      );
      for (const n of list)
        assert.match(source, new RegExp(`throw new NotImplementedError\\("${tag}\\.${n.method}"\\)`));
      assert.equal(source.match(/^import \{ NotImplementedError \} from "twinspec";$/gm)?.length, 1, tag);
      assert.deepEqual(
        changes.find((c) => c.file === `src/domain/${tag}.ts`)?.needs?.map((n) => n.method),
        list.map((n) => n.method),
      );
    }
    assert.match(
      file("src/domain/loans.ts"),
      /async listByParents\(parentIds: readonly string\[\], fields\?: readonly string\[\]\): Promise<Map<string, Loan\[\]>>/,
    );
    assert.match(file("src/domain/members.ts"), /async getMany\(ids: readonly string\[\]\): Promise<Member\[\]>/);
    assert.match(file("src/domain/loans.ts"), /async get\(loanId: string\): Promise<Loan>/);
    assert.match(file("src/domain/renewals.ts"), /async parentOf\(renewalId: string\): Promise<string \| undefined>/);
  });

  it("appends to an existing module only the methods it lacks, at the end of its class, joining the import from twinspec", () => {
    syncStubs(contract, doc, { root });
    // members.ts as a user wrote it: another import from twinspec, no NotImplementedError, no getMany yet.
    const written = [
      `import { NotFoundError } from "twinspec";`,
      `import type { Deps } from "../../generated/wiring.js";`,
      "",
      "export interface Member {",
      "  memberId: string;",
      "}",
      "",
      "export class Members {",
      "  constructor(private readonly deps: Deps) {}",
      "",
      "  async get(memberId: string): Promise<Member> {",
      "    throw new NotFoundError(memberId);",
      "  }",
      "}",
      "",
      "export function createService(deps: Deps) {",
      "  return new Members(deps);",
      "}",
      "",
    ].join("\n");
    writeFileSync(join(root, "src/domain/members.ts"), written);
    const loans = file("src/domain/loans.ts");
    const changes = syncStubs(contract, doc, { root });
    assert.deepEqual(
      changes.map((c) => `${c.file}: ${c.added.join(", ")}`),
      ["src/domain/members.ts: getMany"],
    );
    assert.match(changes[0].needs![0].why, /Loan\.member reads one by id/);
    const now = file("src/domain/members.ts");
    assert.equal(now.match(/NotImplementedError\b/g)?.length, 2, "one import, one throw");
    assert.match(now, /^import \{ NotFoundError, NotImplementedError \} from "twinspec";$/m);
    assert.equal(
      now.replace(", NotImplementedError", "").replace(/\n  \/\*\*[^\n]*\n  async getMany[\s\S]*?\n  \}\n(?=\}\n)/, ""),
      written,
      "only inserted",
    );
    assert.match(
      now,
      /    throw new NotFoundError\(memberId\);\n  \}\n\n  \/\*\*[^\n]*\n  async getMany\(ids: readonly string\[\]\): Promise<Member\[\]> \{\n    throw new NotImplementedError\("members\.getMany"\);\n  \}\n\}\n\nexport function createService/,
    );
    assert.equal(file("src/domain/loans.ts"), loans, "a module with every method is left alone");
    assert.deepEqual(syncStubs(contract, doc, { root }), [], "a second run changes nothing");
  });

  it("a module whose service extends another is not written to: the methods it does not declare are named", () => {
    syncStubs(contract, doc, { root });
    const written =
      'import { Base } from "./base.js";\nexport interface Book { bookId: string }\nexport class BookService extends Base {}\nexport const createService = () => new BookService();\n';
    writeFileSync(join(root, "src/domain/books.ts"), written);
    const changes = syncStubs(contract, doc, { root });
    assert.deepEqual(
      changes.map((c) => [c.file, c.manual, c.needs?.map((n) => n.method)]),
      [["src/domain/books.ts", true, ["getMany"]]],
    );
    assert.equal(file("src/domain/books.ts"), written);
  });

  it("a stub added to a REST file that already imports NotImplementedError adds no second import", () => {
    syncStubs(contract, doc, { root });
    const rest = file("src/rest/loans.ts").replace(/  async getLoan\(\) \{\n[^}]*\},\n/, "");
    writeFileSync(join(root, "src/rest/loans.ts"), rest);
    assert.deepEqual(
      syncStubs(contract, doc, { root }).map((c) => c.added.join()),
      ["getLoan"],
    );
    assert.equal(file("src/rest/loans.ts").match(/^import .*NotImplementedError/gm)?.length, 1);
  });
});

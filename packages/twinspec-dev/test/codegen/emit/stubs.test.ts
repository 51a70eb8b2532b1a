// stubs.ts: `npm run generate` writes a stub for each operation, resolver and resource module that has none, into
// the right file, and never changes what is written there already.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSpecChecks } from "../../../src/codegen/check/spec-checks.js";
import { loadDocument } from "../../../src/codegen/load/spec.js";
import { syncStubs } from "../../../src/codegen/emit/stubs.js";
import { tagsWithFiles } from "../../../src/codegen/emit/contract-emitter.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

describe("stubs in the hand-written files", () => {
  const { contract } = runSpecChecks({ openapi: join(FIXTURE, "openapi.yaml"), graphql: join(FIXTURE, "schema.graphql"), cwd: FIXTURE });
  const doc = loadDocument(join(FIXTURE, "openapi.yaml"));
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "stubs-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => readFileSync(join(root, path), "utf8");

  it("writes each tag's REST, GraphQL and domain files whole when they are missing, then nothing more", () => {
    const first = syncStubs(contract, doc, { root });
    const tags = tagsWithFiles(contract);
    const expected = [...tags.domain.map((t) => `src/domain/${t}.ts`), ...tags.graphql.map((t) => `src/graphql/${t}.ts`), ...tags.rest.map((t) => `src/rest/${t}.ts`), "src/graphql/scalars.ts", "src/graphql/loaders.ts"];
    assert.deepEqual(first.filter((c) => c.created).map((c) => c.file).sort(), expected.sort());
    for (const file of ["src/domain/notes.ts", "src/graphql/notes.ts", "src/rest/authors.ts"]) assert.ok(expected.includes(file));
    assert.match(file("src/rest/notes.ts"), /export const handlers: HandlersByTag\["notes"\] = \{\n  async listNotes\(\) \{\n    throw new NotImplementedError\("listNotes"\);/);
    assert.match(file("src/graphql/notes.ts"), /Subscription: \{\n    noteChanged: \{\n      subscribe: \(\) => \{/);
    assert.match(file("src/domain/notes.ts"), /export interface Note \{\n  noteId: string;[\s\S]*async ownerOf\(noteId: string\)/);
    assert.match(file("src/domain/notes.ts"), /  version: number;\n\}/, "an ETag-answering resource's model gets the version its ETag is made from");
    assert.doesNotMatch(file("src/domain/authors.ts"), /ownerOf/, "an author owns itself");
    assert.match(file("src/graphql/scalars.ts"), /import \{ DateTime \} from "twinspec";[\s\S]*export const scalars: ScalarResolvers = \{\n  DateTime,\n\};/);
    assert.match(file("src/graphql/loaders.ts"), /export function createLoaders\(services: Services\)/);
    assert.deepEqual(syncStubs(contract, doc, { root }), [], "a second run changes nothing");
  });

  it("adds only the missing members to an existing file, keeping every byte already there", () => {
    syncStubs(contract, doc, { root });
    const rest = file("src/rest/notes.ts").replace(/  async deleteNote\(\) \{\n[^}]*\},\n/, "").replace("async getNote() {", "async getNote() {\n    // mine");
    writeFileSync(join(root, "src/rest/notes.ts"), rest);
    const graphql = file("src/graphql/notes.ts").replace(/  Subscription: \{[\s\S]*?\n  \},\n/, "").replace(/    note: \(\) => \{[^}]*\},\n/, "");
    writeFileSync(join(root, "src/graphql/notes.ts"), graphql);
    const changes = syncStubs(contract, doc, { root });
    assert.deepEqual(changes.map((c) => `${c.file}: ${c.added.join(", ")}`), ["src/rest/notes.ts: deleteNote", "src/graphql/notes.ts: Query.note, Subscription.noteChanged"]);
    assert.ok(file("src/rest/notes.ts").startsWith(rest.slice(0, rest.lastIndexOf("};"))), "what was there is kept as it was");
    assert.match(file("src/rest/notes.ts"), /\/\/ mine/);
    assert.match(file("src/rest/notes.ts"), /async deleteNote\(\) \{\n    throw new NotImplementedError\("deleteNote"\);\n  \},\n\};\n$/);
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
    assert.equal(changes.length, tags.domain.length + tags.graphql.length + tags.rest.length + 2, "and scalars.ts, loaders.ts");
    assert.throws(() => readFileSync(join(root, "src/rest/notes.ts")));
  });

  it("says what to do with a file whose handlers object it cannot find", () => {
    syncStubs(contract, doc, { root });
    writeFileSync(join(root, "src/rest/authors.ts"), "export const somethingElse = 1;\n");
    assert.throws(() => syncStubs(contract, doc, { root }), /src\/rest\/authors\.ts has no `export const handlers = \{ … \}`/);
  });

  it("an application's own files (the fixture's) have every stub (generate -- --check fails otherwise)", () => {
    assert.deepEqual(syncStubs(contract, doc, { check: true, root: FIXTURE }), []);
  });
});

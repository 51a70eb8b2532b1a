// Write-read round trips on a copy of the fixture whose notes have an optional `body`: the clean copy reads back what
// it is sent over both transports; a REST handler that leaves the optional field out of its answer, a domain that does
// not store the optional input, and a GraphQL resolver that drops the field each fail, naming the operation, the
// property, the transport, the shrunk request and the seed, without a stack from inside the kit; a stub is pending.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

/** Replaces `from` by `to` in the copy's file, failing when `from` is not there. */
function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  assert.ok(text.includes(from), `${file} no longer holds ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

describe("write-read round trips", function () {
  this.timeout(300_000);
  const dir = resolve("test", ".tmp", `round-trips-${process.pid}`);
  const originals = new Map<string, string>();

  before(() => {
    mkdirSync(dir, { recursive: true });
    for (const entry of ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src"])
      cpSync(join(FIXTURE, entry), join(dir, entry), { recursive: true });
    // A note's body becomes optional, on both transports, and a note sent without one is stored with an empty body.
    edit(
      dir,
      "openapi.yaml",
      "required: [noteId, ownerId, title, body, createdAt, updatedAt]",
      "required: [noteId, ownerId, title, createdAt, updatedAt]",
    );
    edit(
      dir,
      "openapi.yaml",
      'required: [title, body]\n      properties:\n        title: { $ref: "#/components/schemas/Title" }',
      'required: [title]\n      properties:\n        title: { $ref: "#/components/schemas/Title" }',
    );
    edit(
      dir,
      "schema.graphql",
      "  title: String!\n  body: String!\n  createdAt",
      "  title: String!\n  body: String\n  createdAt",
    );
    edit(
      dir,
      "schema.graphql",
      "input CreateNoteInput {\n  title: String!\n  body: String!",
      "input CreateNoteInput {\n  title: String!\n  body: String",
    );
    edit(dir, "src/domain/notes.ts", "      body: input.body,\n", '      body: input.body ?? "",\n');
    // An author's body takes properties it does not name: what the server sets, sent, must then be ignored; and it
    // names updatedAt, readOnly: sent, it must be refused.
    edit(
      dir,
      "openapi.yaml",
      'description: The whole writable state of an author\n      additionalProperties: false\n      required: [name]\n      properties:\n        name: { $ref: "#/components/schemas/Name" }\n',
      'description: The whole writable state of an author\n      required: [name]\n      properties:\n        name: { $ref: "#/components/schemas/Name" }\n        updatedAt: { type: string, format: date-time, readOnly: true }\n',
    );
    const generated = spawnSync(process.execPath, [resolve("bin/twinspec.js"), "generate"], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
    for (const file of ["src/rest/notes.ts", "src/domain/notes.ts", "src/graphql/notes.ts", "src/domain/authors.ts"])
      originals.set(file, readFileSync(join(dir, file), "utf8"));
  });
  afterEach(() => {
    for (const [file, text] of originals) writeFileSync(join(dir, file), text);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const roundTrips = (grep?: string) =>
    childMocha({
      file: "test/testing/round-trip-run.ts",
      root: dir,
      cwd: dir,
      grep,
      testTimeout: 120_000,
      timeout: 240_000,
    });

  const named = (output: string) => {
    assert.match(
      output,
      /seed \d+\n\s+replay: ROUND_TRIP_SEED=\d+ ROUND_TRIP_PATH=[\d:]+ npx mocha test\/testing\/round-trip-run\.ts --fgrep '[^'\n]+'/,
      output,
    );
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  };

  it("pass on the fixture: every note and author written reads back, over REST and GraphQL", () => {
    const { status, output } = roundTrips();
    assert.equal(status, 0, output);
    assert.match(output, /createNote \(POST \/notes\): a create over REST reads back over REST and GraphQL/);
    assert.match(output, /Mutation\.updateNote \(paired with patchNote\): a merge over GraphQL/);
    assert.match(
      output,
      /✔ createNote \(POST \/notes\): what the server sets \(noteId, ownerId, createdAt, updatedAt\) is refused when sent/,
    );
    assert.match(
      output,
      /✔ createAuthor \(POST \/authors\): what the server sets \(authorId, createdAt, updatedAt\) is refused or ignored when sent/,
    );
    assert.match(output, /\d+ bodies: [1-9]\d* read back as written/);
    assert.doesNotMatch(output, /bodies: 0 read back/, output);
  });

  it("a REST handler that leaves an optional field out of its answer fails, naming the field and where", () => {
    edit(dir, "src/rest/notes.ts", "  body: n.body,\n", "");
    const { status, output } = roundTrips("createNote \\(POST /notes\\): a create");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /"body" written by createNote \(POST \/notes\), a create over REST, does not read back as written over REST \(createNote's answer, getNote\)\n/,
      output,
    );
    assert.match(output, /- "body": sent "[^\n]*"; getNote over REST \(GET \/notes\/not_[\w-]+\) reads absent/, output);
    assert.match(output, /request: POST \/notes \{"title":"[^\n]*","body":"[^\n]*"\}/, output);
    assert.doesNotMatch(output, /Query\.note over GraphQL[^\n]* reads/, "GraphQL reads it back");
    named(output);
  });

  it("an optional input field the domain does not store fails, naming it over both transports", () => {
    edit(dir, "src/domain/notes.ts", '      body: input.body ?? "",\n', '      body: "",\n');
    const { status, output } = roundTrips("createNote");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /"body" written by createNote \(POST \/notes\), a create over REST, does not read back as written over REST \(createNote's answer, getNote\) and GraphQL \(Query\.note\)/,
      output,
    );
    assert.match(
      output,
      /"body" written by Mutation\.createNote, a create over GraphQL, does not read back as written over REST \(getNote\) and GraphQL \(Mutation\.createNote's answer, Query\.note\)/,
      output,
    );
    assert.match(output, /- "body": sent "[^\n]+"; Query\.note over GraphQL \(query[^\n]*\) reads ""/, output);
    // Shrunk: the smallest body that shows it is a one-character body beside the shortest title.
    assert.match(output, /request: POST \/notes \{"title":".","body":"."\}/, output);
    assert.match(
      output,
      /request: mutation\(\$input: CreateNoteInput!\) \{ answer: createNote\(input: \$input\) \{ noteId title body \} \} variables \{"input":\{"title":".","body":"."\}\}/,
      output,
    );
    named(output);
    // The replay command runs that case alone, straight to the same shrunk request.
    const [, seed, path, title] =
      /replay: ROUND_TRIP_SEED=(\d+) ROUND_TRIP_PATH=([\d:]+) npx mocha \S+ --fgrep '([^'\n]+)'/.exec(output)!;
    const request = /request: (POST \/notes [^\n]*)/.exec(output)![1];
    const again = childMocha({
      file: "test/testing/round-trip-run.ts",
      root: dir,
      cwd: dir,
      grep: title.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
      env: { ROUND_TRIP_SEED: seed, ROUND_TRIP_PATH: path },
      testTimeout: 120_000,
      timeout: 240_000,
    });
    assert.notEqual(again.status, 0, again.output);
    assert.ok(again.output.includes(`request: ${request}\n`), again.output);
    assert.match(again.output, /1 failing/, again.output);
  });

  it("a GraphQL resolver that drops a field fails, naming the field and the GraphQL field read", () => {
    edit(
      dir,
      "src/graphql/notes.ts",
      "note: (_, { noteId }, { services }) => services.notes.get(noteId),",
      "note: async (_, { noteId }, { services }) => ({ ...(await services.notes.get(noteId)), body: null }),",
    );
    const { status, output } = roundTrips("createNote \\(POST /notes\\): a create");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /"body" written by createNote \(POST \/notes\), a create over REST, does not read back as written over GraphQL \(Query\.note\)\n/,
      output,
    );
    assert.match(
      output,
      /- "body": sent "[^\n]*"; Query\.note over GraphQL \(query\(\$noteId: ID!\) \{ answer: note\(noteId: \$noteId\) \{ [^\n]*body[^\n]* \} \}\) reads null/,
      output,
    );
    assert.doesNotMatch(output, /getNote over REST[^\n]* reads/, "REST reads it back");
    named(output);
  });

  it("a writer that is still a stub is pending, and the others run (an instance to patch is made by another creator)", () => {
    edit(
      dir,
      "src/rest/notes.ts",
      "    return created(await services.notes.create(principal!.subject, req.body));",
      '    throw new (await import("twinspec")).NotImplementedError("createNote");',
    );
    const { status, output } = roundTrips("Note");
    assert.equal(status, 0, output);
    assert.match(output, /- createNote \(POST \/notes\): a create over REST reads back over REST and GraphQL/, output);
    assert.match(output, /✔ patchNote \(PATCH \/notes\/\{noteId\}\): a merge over REST/, output);
    assert.match(output, /✔ Mutation\.createNote \(paired with createNote\): a create over GraphQL/, output);
    assert.match(output, /[1-9]\d* pending/, output);
  });

  it("a domain that takes a value the server sets from the client's body fails, naming the property", () => {
    edit(
      dir,
      "src/domain/authors.ts",
      "      created_at: at,\n",
      "      created_at: (input as { createdAt?: string }).createdAt ?? at,\n",
    );
    const { status, output } = roundTrips("createAuthor \\(POST /authors\\): what the server sets");
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /createAuthor \(POST \/authors\): what the server sets is not refused or ignored when a client sends it:\n  - "createdAt": the server set it to what the client sent \("2026-11-24T10:00:00\.000Z"\); it is the server's to set\n    request: POST \/authors \{"name":"Ada Lovelace","createdAt":"2026-11-24T10:00:00\.000Z"\}/,
      output,
    );
    assert.doesNotMatch(output, /"authorId": the server set it/, output);
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });
});

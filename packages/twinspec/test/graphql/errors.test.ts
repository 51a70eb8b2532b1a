// Errors: partial results, codes on everything, the argument path of bad input, masking of the unexpected.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { GraphQLError } from "graphql";
import { pino } from "pino";
import { NotFoundError } from "../../src/domain/errors.js";
import { toGraphqlError } from "../../src/graphql/errors.js";
import { httpError } from "../../src/runtime/problem.js";
import { ada, gql, startServer, type TestServer } from "../support/server.js";

describe("GraphQL errors", () => {
  let s: TestServer;
  const lines: Record<string, unknown>[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    s = await startServer({ logger: pino({ level: "error" }, sink) });
  });
  after(() => s.close());

  it("a failing nullable field nested in a list leaves the rest of data (partial result)", async () => {
    const created = await gql(s.url, `mutation($i: CreateAuthorInput!) { createAuthor(input: $i) { authorId } }`, {
      i: ada,
    });
    const id = created.json.data.createAuthor.authorId;
    const res = await gql(
      s.url,
      `query($id: ID!) { author(authorId: $id) { name } note(noteId: "not_x") { noteId } nobody: author(authorId: "aut_x") { authorId } }`,
      { id },
    );
    assert.deepEqual(res.json.data, { author: { name: "Ada Lovelace" }, note: null, nobody: null });
    // Sibling root fields resolve concurrently: their errors come in completion order.
    assert.deepEqual(
      res.json.errors
        .map((e: { path: string[]; extensions: { code: string } }) => [e.path[0], e.extensions.code])
        .sort(),
      [
        ["nobody", "NOT_FOUND"],
        ["note", "NOT_FOUND"],
      ],
    );
  });

  it("authors(after:) naming nobody → BAD_USER_INPUT on argument 'after'", async () => {
    const res = await gql(s.url, `{ authors(after: "aut_nobody") { authorId } }`);
    assert.equal(res.json.data, null);
    assert.equal(res.json.errors[0].extensions.code, "BAD_USER_INPUT");
    assert.equal(res.json.errors[0].extensions.argument, "after");
    assert.deepEqual(res.json.errors[0].extensions.invalid[0].path, ["after"]);
  });

  it("an unexpected failure is masked with the request id and logged with its stack", async () => {
    const notes = s.app.services.notes;
    const original = notes.get;
    notes.get = async () => {
      throw new Error("disk on fire at /var/secret");
    };
    try {
      const res = await gql(s.url, `{ note(noteId: "not_1") { title } }`);
      const requestId = res.headers.get("x-request-id")!;
      const [error] = res.json.errors;
      assert.deepEqual(res.json.data, { note: null });
      assert.equal(error.extensions.code, "INTERNAL_SERVER_ERROR");
      assert.equal(error.extensions.requestId, requestId);
      assert.match(error.message, new RegExp(requestId));
      assert.doesNotMatch(res.text, /fire|secret|at async/);
      const logged = lines.find((l) => l.requestId === requestId && l.msg === "resolver failed") as
        | { err: { stack: string } }
        | undefined;
      assert.ok(logged, "logged with the request id");
      assert.match(logged.err.stack, /disk on fire/);
    } finally {
      notes.get = original;
    }
  });

  it("maps the auth layer's refusals to UNAUTHENTICATED and FORBIDDEN", () => {
    const ctx = { requestId: "r1" };
    const forbidden = Object.assign(new Error("not yours"), { kind: "forbidden" });
    assert.equal(toGraphqlError(forbidden, ctx).extensions.code, "FORBIDDEN");
    assert.equal(
      toGraphqlError(Object.assign(new Error("who?"), { kind: "unauthenticated" }), ctx).extensions.code,
      "UNAUTHENTICATED",
    );
    assert.equal(toGraphqlError(httpError(401, "no token"), ctx).extensions.code, "UNAUTHENTICATED");
    assert.equal(toGraphqlError(httpError(403, "no scope"), ctx).extensions.code, "FORBIDDEN");
    const coded = new GraphQLError("x", { extensions: { code: "FORBIDDEN" } });
    assert.equal(toGraphqlError(coded, ctx), coded);
    assert.equal(toGraphqlError(new NotFoundError("note", "n1"), ctx).extensions.code, "NOT_FOUND");
  });
});

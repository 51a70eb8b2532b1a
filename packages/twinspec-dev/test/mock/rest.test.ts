// The mock server's REST side, walked over every operation of the fixture's openapi.yaml: its default answer and the
// answer to `Prefer: code=NNN` for every status it declares, each checked against the spec with Ajv
// (test/support/mock.ts); an undeclared code refused; the same authorization, validation and transport rules as the
// real server.
import assert from "node:assert/strict";
import { token } from "../../../twinspec/test/support/auth.js";
import { mismatches, startMockServer, type MockServer } from "../../../twinspec/test/support/mock.js";
import { call } from "../../../twinspec/test/support/server.js";
import { operations, pathParams, resources, send, type Operation } from "../../../twinspec/test/support/spec.js";

/** Ids for every path parameter: `<prefix>_mock<n>` for resources, anything valid otherwise. */
const ids = Object.fromEntries(
  [...new Set(operations.flatMap((op) => pathParams(op.path)))].map((name, n) => {
    const resource = Object.values(resources).find((r) => r.id === name);
    return [name, `${resource?.idPrefix ?? "id"}_mock${n}`];
  }),
);
const statuses = (op: Operation) =>
  Object.keys(op.responses)
    .filter((s) => /^\d{3}$/.test(s))
    .map(Number);

describe("mock server: REST (every operation of openapi.yaml)", () => {
  let s: MockServer;
  before(async () => (s = await startMockServer({ bodyLimit: 4096 })));
  after(() => s.close());

  for (const op of operations) {
    it(`${op.operationId}: the first success by default, and every declared status under Prefer: code=…, each as declared`, async () => {
      const success = Math.min(...statuses(op).filter((st) => st >= 200 && st < 300));
      const plain = await send(s.url, op, ids);
      assert.equal(plain.status, success, plain.text);
      assert.deepEqual(mismatches(op, plain), [], `${op.operationId} ${plain.status}: ${plain.text}`);
      for (const status of statuses(op)) {
        const res = await send(s.url, op, ids, { headers: { prefer: `code=${status}` } });
        assert.equal(res.status, status, `Prefer: code=${status}: ${res.text}`);
        assert.deepEqual(mismatches(op, res), [], `${op.operationId} ${status}: ${res.text}`);
        if (res.headers.get("content-type") === "application/problem+json")
          assert.equal(res.json.status, status, "a problem names its status");
      }
    });
  }

  it("answers an undeclared Prefer code with 400, naming the codes that are declared", async () => {
    const op = operations.find((o) => o.operationId === "getNote")!;
    const res = await send(s.url, op, ids, { headers: { prefer: "code=418" } });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const declared = Object.keys(op.responses)
      .filter((c) => /^\d{3}$/.test(c))
      .sort()
      .join(", ");
    assert.ok(declared.startsWith("200, 304, 400"), declared);
    assert.ok(
      res.json.detail.includes(`code=418 is not a status getNote declares; it declares ${declared}`),
      res.json.detail,
    );
    assert.deepEqual(
      res.json.errors.map((e: { in: string; pointer: string }) => [e.in, e.pointer]),
      [["header", "/Prefer"]],
    );
    const named = await send(s.url, op, ids, { headers: { prefer: "example=grace" } });
    assert.equal(named.status, 400);
    assert.match(named.json.detail, /example=grace: getNote 200 has no named examples/);
  });

  it("answers from the spec's examples, echoing what the request names; Location names the resource made", async () => {
    const got = await call(`${s.url}/notes/not_42`);
    assert.equal(got.status, 200);
    assert.deepEqual(
      { ...got.json },
      {
        noteId: "not_42",
        ownerId: "user_123",
        title: "Groceries",
        body: "Milk, eggs, bread",
        createdAt: "2026-11-24T10:00:00.000Z",
        updatedAt: "2026-11-24T10:00:00.000Z",
      },
    );
    assert.equal(got.headers.get("etag"), '"v1"');
    const author = await call(`${s.url}/authors/aut_42`);
    assert.deepEqual([author.json.authorId, author.json.name], ["aut_42", "Ada Lovelace"]);
    const notes = await call(`${s.url}/authors/aut_42/notes`);
    assert.equal(notes.status, 200);
    assert.deepEqual(
      notes.json.items.map((n: { title: string }) => n.title),
      ["Groceries"],
    );
    const made = await call(`${s.url}/authors`, { method: "POST", json: { name: "Grace Hopper" } });
    assert.equal(made.status, 201);
    assert.equal(made.json.name, "Grace Hopper");
    assert.equal(made.headers.get("location"), `/authors/${made.json.authorId}`);
    const patched = await call(`${s.url}/notes/not_7`, {
      method: "PATCH",
      body: '{"title":"Sunday"}',
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.deepEqual([patched.status, patched.json.noteId, patched.json.title], [200, "not_7", "Sunday"]);
    const minimal = await call(`${s.url}/notes/not_42`, {
      method: "PATCH",
      body: '{"body":"Bread"}',
      headers: { "content-type": "application/merge-patch+json", prefer: "return=minimal" },
    });
    assert.deepEqual([minimal.status, minimal.headers.get("etag")], [204, '"v1"']);
    // Made under another resource's path: Location names the note made, not the author the path names.
    const written = await call(`${s.url}/authors/aut_1/notes`, {
      method: "POST",
      json: { title: "Letters", body: "To Babbage" },
    });
    assert.equal(written.status, 201);
    assert.equal(written.json.title, "Letters");
    assert.equal(written.headers.get("location"), `/notes/${written.json.noteId}`);
  });

  it("applies conditional requests to its answers: If-None-Match with the answer's ETag is a 304", async () => {
    const res = await call(`${s.url}/notes/not_1`, { headers: { "if-none-match": '"v1"' } });
    assert.equal(res.status, 304);
    assert.equal(res.text, "");
  });

  it("authorizes as the real server: 401 without a token, 403 without the scope or on every author's data; an instance counts as the caller's", async () => {
    const list = operations.find((o) => o.operationId === "listAuthors")!;
    const none = await send(s.url, list, ids, { token: null });
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="twinspec"');
    const expired = await send(s.url, list, ids, { token: await token("ops", "admin", -10) });
    assert.equal(expired.status, 401);
    assert.match(expired.headers.get("www-authenticate")!, /error="invalid_token"/);
    const author = await token(ids.authorId, "authors:read notes:read");
    assert.equal(
      (await send(s.url, list, ids, { token: author })).status,
      403,
      "a collection of every author needs admin",
    );
    const note = operations.find((o) => o.operationId === "getNote")!;
    assert.equal(
      (await send(s.url, note, ids, { token: author })).status,
      200,
      "no data says whose a note is: it is the caller's",
    );
    const remove = operations.find((o) => o.operationId === "deleteNote")!;
    const lacking = await send(s.url, remove, ids, { token: author, headers: { prefer: "code=204" } });
    assert.equal(lacking.status, 403, "auth comes before Prefer");
    assert.match(lacking.headers.get("www-authenticate")!, /error="insufficient_scope", scope="notes:write"/);
  });

  it("validates as the real server: 400 naming each bad input, 415, 406, 413, 405, unknown paths 404", async () => {
    const write = operations.find((o) => o.operationId === "writeNote")!;
    const bad = await send(
      s.url,
      write,
      { authorId: "not an id!" },
      { body: { title: "", body: "x", color: "red" }, headers: { prefer: "code=201" } },
    );
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json.errors.map((e: { in: string; pointer: string }) => `${e.in} ${e.pointer}`).sort(), [
      "body /color",
      "body /title",
      "path /authorId",
    ]);
    const wrongType = await send(s.url, write, ids, { headers: { "content-type": "text/plain" }, raw: "hello" });
    assert.equal(wrongType.status, 415);
    const html = await send(s.url, write, ids, { headers: { accept: "text/html" } });
    assert.equal(html.status, 406);
    const big = await send(s.url, write, ids, { body: { title: "T", body: "B".repeat(5000) } });
    assert.equal(big.status, 413);
    const method = await call(`${s.url}/authors/aut_1`, { method: "DELETE" });
    assert.equal(method.status, 405);
    assert.equal(method.headers.get("allow"), "GET, HEAD, OPTIONS");
    const unknown = await call(`${s.url}/no-such-collection`);
    assert.equal(unknown.status, 404);
    assert.ok(
      unknown.json.entryPoints.includes("/notes") && unknown.json.entryPoints.includes("/authors"),
      JSON.stringify(unknown.json.entryPoints),
    );
  });

  it("serves /healthz, /readyz (no database to wait for) and the specs", async () => {
    assert.deepEqual((await call(`${s.url}/healthz`)).json, { status: "ok" });
    assert.deepEqual((await call(`${s.url}/readyz`)).json, { status: "ready", mock: true });
    assert.equal((await call(`${s.url}/openapi.json`)).json.info.title, "Notes fixture API");
  });
});

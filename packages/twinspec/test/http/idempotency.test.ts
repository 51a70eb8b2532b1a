// Idempotency-Key on POST: a repeat replays the first response instead of creating again.
import assert from "node:assert/strict";
import { ABANDONED_MS, fingerprint } from "../../src/http/idempotency.js";
import { call, newAuthor, startServer, type TestServer } from "../support/server.js";

describe("Idempotency-Key", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const post = (path: string, json: unknown, key: string) =>
    call(`${s.url}${path}`, { method: "POST", json, headers: { "Idempotency-Key": key } });

  it("a repeated POST with the same key and body replays the first 201: one author, same body and Location", async () => {
    const first = await post("/authors", { name: "Idem" }, "key-1");
    const again = await post("/authors", { name: "Idem" }, "key-1");
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.json, first.json);
    assert.equal(again.headers.get("location"), first.headers.get("location"));
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    const list = await call(`${s.url}/authors?limit=100`);
    assert.equal(list.json.items.filter((a: { name: string }) => a.name === "Idem").length, 1);
  });

  it("the same key with a different body → 422, nothing created", async () => {
    await post("/authors", { name: "K2" }, "key-2");
    const other = await post("/authors", { name: "K2 other" }, "key-2");
    assert.equal(other.status, 422);
    assert.equal(other.headers.get("content-type"), "application/problem+json");
    assert.match(other.json.detail, /different request/);
    const list = await call(`${s.url}/authors?limit=100`);
    assert.ok(!list.json.items.some((a: { name: string }) => a.name === "K2 other"));
  });

  it("works on every POST: a note under an author too; without a key POST stays non-idempotent", async () => {
    const { authorId } = await newAuthor(s.url);
    const n1 = await post(`/authors/${authorId}/notes`, { title: "T", body: "B" }, "note-key");
    const n2 = await post(`/authors/${authorId}/notes`, { title: "T", body: "B" }, "note-key");
    assert.equal(n1.status, 201);
    assert.equal(n2.json.noteId, n1.json.noteId);
    assert.equal(n2.headers.get("location"), n1.headers.get("location"));
    const u1 = await call(`${s.url}/authors/${authorId}/notes`, { method: "POST", json: { title: "T", body: "B" } });
    const u2 = await call(`${s.url}/authors/${authorId}/notes`, { method: "POST", json: { title: "T", body: "B" } });
    assert.notEqual(u1.json.noteId, u2.json.noteId);
  });

  it("a key whose first request is still unanswered → 409; one abandoned by a crashed server is free again", async () => {
    const pending = (key: string, ageMs: number, body: object) =>
      s.store.db
        .insertInto("idempotency_keys")
        .values({
          scope: "test-admin",
          key,
          fingerprint: fingerprint("createAuthor", { body }),
          status: null,
          headers: null,
          body: null,
          created_at: new Date(Date.now() - ageMs).toISOString(),
        })
        .execute();
    await pending("in-flight", 1_000, { name: "In flight" });
    const busy = await post("/authors", { name: "In flight" }, "in-flight");
    assert.equal(busy.status, 409);
    await pending("abandoned", ABANDONED_MS + 5_000, { name: "Abandoned" });
    const retried = await post("/authors", { name: "Abandoned" }, "abandoned");
    assert.equal(retried.status, 201, retried.text);
    const replay = await post("/authors", { name: "Abandoned" }, "abandoned");
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
  });

  it("a declared failure is replayed too (the first answer stands)", async () => {
    const first = await post("/authors/nobody/notes", { title: "T", body: "B" }, "fail-key");
    assert.equal(first.status, 404);
    const again = await post("/authors/nobody/notes", { title: "T", body: "B" }, "fail-key");
    assert.equal(again.status, 404);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  });
});

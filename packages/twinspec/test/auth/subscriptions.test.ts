// Subscription auth: graphql-ws takes the token from connection_init (or the upgrade header) and closes with
// 4403 on a bad one; SSE takes the header; an author hears only its own notes; an expiring token ends it.
import assert from "node:assert/strict";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { token } from "../support/auth.js";
import { call, newAuthor, newNote, startServer, type TestServer } from "../support/server.js";

const SUBSCRIBE = `subscription($c: ID!) { noteChanged(authorId: $c) { noteId title } }`;

describe("subscription auth", () => {
  let s: TestServer;
  let wsUrl: string;
  before(async () => {
    s = await startServer();
    wsUrl = `${s.url.replace("http", "ws")}/graphql`;
  });
  after(() => s.close());

  const ws = (authorization?: string) =>
    createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: authorization ? { authorization } : {},
    });

  /** The first `n` results of a subscription, or what it failed with. */
  async function take(iterable: AsyncIterable<unknown>, n: number, ms = 3000): Promise<unknown[]> {
    const out: unknown[] = [];
    const timer = setTimeout(() => void (iterable as AsyncIterableIterator<unknown>).return?.(), ms);
    try {
      for await (const r of iterable) {
        out.push(r);
        if (out.length >= n) break;
      }
    } finally {
      clearTimeout(timer);
    }
    return out;
  }

  it("an invalid token in connection_init closes the socket with 4403", async () => {
    const client = ws("Bearer not.a.token");
    const closed = new Promise<number>((resolve) => client.on("closed", (e) => resolve((e as { code: number }).code)));
    await assert.rejects(take(client.iterate({ query: SUBSCRIBE, variables: { c: "x" } }), 1));
    assert.equal(await closed, 4403);
    await client.dispose();
  });

  it("no token → UNAUTHENTICATED; another author's id → FORBIDDEN", async () => {
    const owner = await newAuthor(s.url);
    const other = await newAuthor(s.url);
    const anonymous = ws();
    const [first] = (await take(anonymous.iterate({ query: SUBSCRIBE, variables: { c: owner.authorId } }), 1)) as {
      errors: { extensions: { code: string } }[];
    }[];
    assert.equal(first.errors[0].extensions.code, "UNAUTHENTICATED");
    await anonymous.dispose();
    const nosy = ws(`Bearer ${await token(other.authorId, "notes:read")}`);
    const [refused] = (await take(nosy.iterate({ query: SUBSCRIBE, variables: { c: owner.authorId } }), 1)) as {
      errors: { extensions: { code: string } }[];
    }[];
    assert.equal(refused.errors[0].extensions.code, "FORBIDDEN");
    await nosy.dispose();
  });

  it("an author's own subscription receives its notes' changes (token in the upgrade header works too)", async () => {
    const owner = await newAuthor(s.url);
    const note = await newNote(s.url, owner.authorId);
    const client = createWsClient({
      url: wsUrl,
      retryAttempts: 0,
      lazy: true,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols: string[]) {
          super(address, protocols, { headers: { authorization: `Bearer ${tokenFor}` } });
        }
      },
    });
    const tokenFor = await token(owner.authorId, "notes:read");
    const events = take(client.iterate({ query: SUBSCRIBE, variables: { c: owner.authorId } }), 1);
    await new Promise((r) => setTimeout(r, 200));
    await call(`${s.url}/notes/${note.noteId}`, {
      method: "PATCH",
      body: JSON.stringify({ title: "Changed" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    const got = (await events) as { data?: unknown; extensions?: { eventId?: unknown } }[];
    assert.deepEqual(
      got.map((e) => e.data),
      [{ noteChanged: { noteId: note.noteId, title: "Changed" } }],
    );
    assert.match(String(got[0].extensions?.eventId), /^\d+$/, "each payload carries its event id");
    await client.dispose();
  });

  it("a token that expires during a subscription ends it", async () => {
    const owner = await newAuthor(s.url);
    const client = ws(`Bearer ${await token(owner.authorId, "notes:read", 2)}`);
    const started = Date.now();
    const results = await take(client.iterate({ query: SUBSCRIBE, variables: { c: owner.authorId } }), 10, 6000);
    const elapsed = Date.now() - started;
    assert.deepEqual(results, []);
    assert.ok(elapsed >= 900 && elapsed < 5500, `ended after ${elapsed} ms`);
    assert.equal(s.app.bus.listenerCount("noteChanged"), 0);
    await client.dispose();
  });

  it("SSE takes the Authorization header: an invalid one → 401", async () => {
    const res = await call(`${s.url}/graphql/stream`, {
      method: "POST",
      headers: {
        authorization: "Bearer nope.nope.nope",
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ query: SUBSCRIBE, variables: { c: "x" } }),
    });
    assert.equal(res.status, 401);
    const client = createSseClient({
      url: `${s.url}/graphql/stream`,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${await token("x", "")}` },
    });
    const [refused] = (await take(client.iterate({ query: SUBSCRIBE, variables: { c: "x" } }), 1)) as {
      errors: { extensions: { code: string } }[];
    }[];
    assert.equal(refused.errors[0].extensions.code, "FORBIDDEN");
    client.dispose();
  });
});

// Connection budgets: WebSocket connections and SSE streams per client address, operations per WebSocket
// connection. Past a budget the client is told which limit and its value; counts fall as connections and
// subscriptions end; /metrics shows the open ones and the refusals.
import assert from "node:assert/strict";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN } from "../support/auth.js";
import { metric } from "../support/metrics.js";
import { call, newAuthor, newNote, startServer, type TestServer } from "../support/server.js";

const SUBSCRIBE = `subscription($c: ID!) { noteChanged(authorId: $c) { noteId title } }`;

/** Resolves once `check` holds (polled), or fails saying what it waited for. */
async function until(what: string, check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw graphql-ws socket, open (upgrade accepted). */
function socket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, "graphql-transport-ws");
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );

describe("WebSocket upgrades on another path", () => {
  it("→ 404 problem+json saying where GraphQL over WebSocket is served", async () => {
    const s = await startServer();
    try {
      const ws = new WebSocket(`${s.url.replace("http", "ws")}/elsewhere`, "graphql-transport-ws");
      const answer = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
        ws.once("unexpected-response", (_req, res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body }));
        });
        ws.once("open", () => reject(new Error("upgraded")));
      });
      assert.deepEqual([answer.status, answer.type], [404, "application/problem+json"]);
      assert.match(JSON.parse(answer.body).detail, /served on \/graphql/);
    } finally {
      await s.close();
    }
  });
});

describe("connection limits", () => {
  describe("WebSocket connections per address", () => {
    let s: TestServer;
    let wsUrl: string;
    before(async () => {
      s = await startServer({ connections: { wsConnectionsPerAddress: 3 } });
      wsUrl = `${s.url.replace("http", "ws")}/graphql`;
    });
    after(() => s.close());

    it("closes the connection past the budget with 4429 naming the limit; a graphql-ws client reports it and does not retry", async () => {
      const open = await Promise.all([socket(wsUrl), socket(wsUrl), socket(wsUrl)]);
      await until("3 connections counted", async () => (await metric(s, "graphql_ws_connections")) === 3);
      const extra = await socket(wsUrl);
      assert.deepEqual(await closed(extra), {
        code: 4429,
        reason: "Too many WebSocket connections from this address (limit 3)",
      });

      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, lazy: true, retryAttempts: 3 });
      const error = await new Promise<unknown>((resolve) =>
        client.subscribe(
          { query: "{ __typename }" },
          { next: () => {}, error: resolve, complete: () => resolve("completed") },
        ),
      );
      assert.equal((error as { code: number }).code, 4429);
      assert.match((error as { reason: string }).reason, /limit 3/);
      await client.dispose();
      assert.equal(await metric(s, "graphql_limit_refusals_total", 'limit="ws_connections_per_address"'), 2);

      // One closes: its place is free again.
      open[0].close();
      await until("the closed connection released", async () => (await metric(s, "graphql_ws_connections")) === 2);
      const next = createClient({ url: wsUrl, webSocketImpl: WebSocket, lazy: true, retryAttempts: 0 });
      const result = await new Promise((resolve, reject) =>
        next.subscribe({ query: "{ __typename }" }, { next: resolve, error: reject, complete: () => {} }),
      );
      assert.deepEqual(result, { data: { __typename: "Query" } });
      await next.dispose();
      for (const ws of open.slice(1)) ws.close();
      await until("every connection released", async () => (await metric(s, "graphql_ws_connections")) === 0);
    });
  });

  describe("operations per WebSocket connection", () => {
    let s: TestServer;
    let client: Client;
    before(async () => {
      s = await startServer({ connections: { subscriptionsPerConnection: 2 } });
      client = createClient({
        url: `${s.url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        lazy: true,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
    });
    after(async () => {
      await client.dispose();
      await s.close();
    });

    it("answers the subscription past the budget with SUBSCRIPTION_LIMIT_EXCEEDED; the others keep flowing; an ended one frees its place", async () => {
      const author = await newAuthor(s.url);
      const note = await newNote(s.url, author.authorId);
      const received: unknown[][] = [[], []];
      const ends = received.map((into) =>
        client.subscribe(
          { query: SUBSCRIBE, variables: { c: author.authorId } },
          { next: (r) => void into.push(r.data), error: () => {}, complete: () => {} },
        ),
      );
      await until("2 subscriptions active", async () => (await metric(s, "graphql_ws_subscriptions")) === 2);

      const refused = await new Promise<unknown>((resolve) =>
        client.subscribe(
          { query: SUBSCRIBE, variables: { c: author.authorId } },
          { next: resolve, error: resolve, complete: () => {} },
        ),
      );
      const [error] = refused as { message: string; extensions: { code: string; limit: number } }[];
      assert.deepEqual(error.extensions, { code: "SUBSCRIPTION_LIMIT_EXCEEDED", limit: 2 });
      assert.match(error.message, /limit 2/);
      assert.equal(await metric(s, "graphql_limit_refusals_total", 'limit="ws_subscriptions_per_connection"'), 1);
      assert.equal(await metric(s, "graphql_ws_connections"), 1, "the connection stays open");

      await call(`${s.url}/notes/${note.noteId}`, {
        method: "PATCH",
        body: JSON.stringify({ title: "Changed" }),
        headers: { "content-type": "application/merge-patch+json" },
      });
      const change = { noteChanged: { noteId: note.noteId, title: "Changed" } };
      await until("both subscriptions hear the change", async () => received.every((r) => r.length === 1));
      assert.deepEqual(received, [[change], [change]]);

      ends[0]();
      await until(
        "the completed subscription released",
        async () => (await metric(s, "graphql_ws_subscriptions")) === 1,
      );
      const again: unknown[] = [];
      client.subscribe(
        { query: SUBSCRIBE, variables: { c: author.authorId } },
        { next: (r) => void again.push(r), error: (e) => void again.push(e), complete: () => {} },
      );
      await until("the new subscription active", async () => (await metric(s, "graphql_ws_subscriptions")) === 2);
      assert.deepEqual(again, [], "accepted, not refused");
    });
  });

  describe("SSE streams per address", () => {
    let s: TestServer;
    before(async () => (s = await startServer({ connections: { sseStreamsPerAddress: 1 } })));
    after(() => s.close());

    let authorId: string;
    before(async () => ({ authorId } = await newAuthor(s.url)));
    const stream = (signal: AbortSignal) =>
      fetch(`${s.url}/graphql/stream`, {
        method: "POST",
        signal,
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          authorization: `Bearer ${ADMIN_TOKEN}`,
        },
        body: JSON.stringify({ query: SUBSCRIBE, variables: { c: authorId } }),
      });

    it("refuses the stream past the budget with 429 STREAM_LIMIT_EXCEEDED; a closed stream frees its place", async () => {
      const first = new AbortController();
      const open = await stream(first.signal);
      assert.equal(open.status, 200);
      const refused = await stream(new AbortController().signal);
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { errors: { extensions: unknown }[] };
      assert.deepEqual(body.errors[0].extensions, { code: "STREAM_LIMIT_EXCEEDED", limit: 1 });
      assert.equal(await metric(s, "graphql_limit_refusals_total", 'limit="sse_streams_per_address"'), 1);

      first.abort();
      const second = new AbortController();
      await until("the aborted stream released", async () => {
        const res = await stream(second.signal);
        if (res.status === 200) return true;
        await res.body?.cancel();
        return false;
      });
      second.abort();
    });
  });
});

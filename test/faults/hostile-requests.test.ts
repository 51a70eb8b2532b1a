// Requests an attacker would send, to the commerce service as `npm start` runs it (src/main.ts, its own process, in
// production mode): none takes the process down, freezes it or answers 500. A truncated upload is answered 400 and
// the server goes on; a document whose fragments fan out is answered at once, /healthz meanwhile; variables and
// bodies nested thousands deep get a coded 400 on every transport; without introspection no error suggests a field.
import assert from "node:assert/strict";
import WebSocket from "ws";
import type { ServerProcess } from "twinspec-dev/testing";
import { startProcess } from "../support/process.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { ada, call } from "../support/server.js";

/** Fragments F0 … F(n-1) on Query, each spreading the next one twice: 2^n spreads if each were followed again. */
export const fanOut = (n: number) => {
  const fragments = Array.from(
    { length: n },
    (_, i) => `fragment F${i} on Query { __typename${i + 1 < n ? ` ...F${i + 1} ...F${i + 1}` : ""} }`,
  );
  return `{ ...F0 } ${fragments.join(" ")}`;
};

/** A value nested `depth` arrays deep, as JSON text: JSON.stringify itself cannot write one this deep. */
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("hostile requests to a production server process", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let server: ServerProcess;
  let alive: boolean;
  const health = async () => (await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1_000) })).status;
  const graphql = (body: unknown, headers: Record<string, string> = {}) =>
    call(`${server.url}/graphql`, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", accept: "application/graphql-response+json", ...headers },
    });

  before(async () => {
    database = await freshDatabase();
    server = await startProcess({ DATABASE_URL: database.url, NODE_ENV: "production" });
    alive = true;
    void server.exited.then(() => (alive = false));
  });
  afterEach(async () => {
    assert.ok(alive, `the server exited:\n${server.output().slice(-2000)}`);
    assert.equal(await health(), 200);
  });
  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await database?.drop();
  });

  it("a truncated multipart upload → 400 saying the body is malformed, and the process goes on", async () => {
    const customer = await call(`${server.url}/customers`, { method: "POST", json: ada });
    assert.equal(customer.status, 201, customer.text);
    const body = Buffer.concat([
      Buffer.from(
        '--XX\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
      ),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    ]);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/customers/${customer.json.customerId}/avatar`, {
        method: "PUT",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "multipart/form-data; boundary=XX" },
        body,
      });
      assert.equal(res.status, 400);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.match(((await res.json()) as { detail: string }).detail, /multipart body is malformed/);
    }
  });

  it("fragments fanning out 30 levels (over POST and GET, each text new) are answered at once, /healthz meanwhile", async () => {
    for (let i = 0; i < 3; i++) {
      const query = `${fanOut(30)} # ${i}`;
      const started = performance.now();
      const [post, get, status] = await Promise.all([
        graphql({ query }),
        call(`${server.url}/graphql?query=${encodeURIComponent(`${query} get`)}`, {
          headers: { accept: "application/graphql-response+json" },
        }),
        health(),
      ]);
      assert.equal(status, 200);
      assert.ok(performance.now() - started < 5_000, "answered within seconds, not minutes");
      for (const res of [post, get]) assert.ok(res.status === 200 || res.status === 400, res.text);
      assert.deepEqual(post.json.data ?? null, post.status === 200 ? { __typename: "Query" } : null, post.text);
    }
  });

  it("variables nested 5,000 deep → BAD_USER_INPUT naming the limit, over POST, GET, SSE and graphql-ws", async () => {
    const query = "query($v: [String]) { __typename }";
    const variables = `{"v":${nested(5000)}}`;
    const post = await graphql(`{"query":${JSON.stringify(query)},"variables":${variables}}`);
    assert.equal(post.status, 400, post.text);
    assert.equal(post.json.errors[0].extensions.code, "BAD_USER_INPUT");
    assert.equal(post.json.errors[0].extensions.limit, 64);
    const get = await call(
      `${server.url}/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(`{"v":${nested(500)}}`)}`,
      { headers: { accept: "application/graphql-response+json" } },
    );
    assert.equal(get.status, 400, get.text);
    assert.equal(get.json.errors[0].extensions.code, "BAD_USER_INPUT");
    const subscription = JSON.stringify("subscription($v: [String]) { __typename }");
    const sse = await call(`${server.url}/graphql/stream`, {
      method: "POST",
      body: `{"query":${subscription},"variables":${variables}}`,
      headers: { "content-type": "application/json", accept: "text/event-stream" },
    });
    assert.equal(sse.status, 400, sse.text);
    assert.equal(sse.json.errors[0].extensions.code, "BAD_USER_INPUT");
    // graphql-ws by hand: its client cannot write such variables either.
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    try {
      const answer = await new Promise<{ type: string; payload?: { extensions?: { code?: string } }[] }>(
        (resolve, reject) => {
          socket.on("open", () =>
            socket.send(
              JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
            ),
          );
          socket.on("message", (data) => {
            const message = JSON.parse(String(data));
            if (message.type === "connection_ack")
              socket.send(`{"id":"1","type":"subscribe","payload":{"query":${subscription},"variables":${variables}}}`);
            else resolve(message);
          });
          socket.on("close", (code) => reject(new Error(`closed ${code}`)));
        },
      );
      assert.equal(answer.type, "error");
      assert.equal(answer.payload?.[0].extensions?.code, "BAD_USER_INPUT");
    } finally {
      socket.close();
    }
  });

  it("a REST body nested 5,000 deep → 400 naming the limit", async () => {
    const res = await call(`${server.url}/customers`, {
      method: "POST",
      body: `${JSON.stringify(ada).slice(0, -1)},"extra":${nested(5000)}}`,
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 400, res.text);
    assert.match(res.json.detail, /more than 64 levels deep/);
  });

  it("JSON bodies that are not valid UTF-8, or name a member twice → 400 saying so", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"firstName":"A'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","lastName":"B","email":"a@example.com"}'),
    ]);
    const invalid = await call(`${server.url}/customers`, {
      method: "POST",
      body: bytes,
      headers: { "content-type": "application/json" },
    });
    assert.equal(invalid.status, 400, invalid.text);
    assert.match(invalid.json.detail, /not valid UTF-8/);
    const twice = await call(`${server.url}/customers`, {
      method: "POST",
      body: '{"firstName":"A","lastName":"B","email":"a@example.com","email":"b@example.com"}',
      headers: { "content-type": "application/json" },
    });
    assert.equal(twice.status, 400, twice.text);
    assert.match(twice.json.detail, /"email" twice/);
    const graphqlTwice = await call(`${server.url}/graphql`, {
      method: "POST",
      body: '{"query":"{ __typename }","query":"{ customers { id } }"}',
      headers: { "content-type": "application/json" },
    });
    assert.equal(graphqlTwice.status, 400, graphqlTwice.text);
  });

  it("in production, introspection is off and no error suggests a field; the 415 says what to send", async () => {
    const typo = await graphql(
      { query: "{ ordr(orderId: 1) { status } }" },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(typo.status, 400);
    assert.doesNotMatch(typo.text, /Did you mean/);
    const introspection = await graphql({ query: "{ __schema { types { name } } }" });
    assert.equal(introspection.status, 400);
    const unsupported = await call(`${server.url}/graphql`, {
      method: "POST",
      body: "{ __typename }",
      headers: { "content-type": "application/graphql" },
    });
    assert.equal(unsupported.status, 415);
    assert.equal(unsupported.json.errors[0].extensions.code, "UNSUPPORTED_MEDIA_TYPE");
  });
});

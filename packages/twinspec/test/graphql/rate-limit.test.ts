// Rate limits on GraphQL: each operation spends its query cost (at least 1) from its operation type's budget, over
// HTTP (RateLimit-Policy and RateLimit on every answer; 429 + RATE_LIMITED + Retry-After over budget) and over graphql-ws.
import assert from "node:assert/strict";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { token } from "../support/auth.js";
import { gql, startServer, type TestServer } from "../support/server.js";
import { clearOfWindowEnd, fields, fromAddress, hourly } from "../rate-limit/helpers.js";

// authors(first: 50) is a list of 50, each with a list of notes (10 assumed): 1 + 50 × 1 = 51.
const COSTLY = "{ authors(first: 50) { authorId notes { noteId } } }";

describe("rate limits on GraphQL", () => {
  let s: TestServer;
  before(async function () {
    this.timeout(60_000); // clearOfWindowEnd may wait up to 30 s
    s = await startServer({ rateLimits: { overrides: hourly({ graphql: 120, "graphql:Mutation": 3 }) } });
    await clearOfWindowEnd();
  });
  after(() => s.close());

  it("each operation spends its query cost: a leaf-only query 1, a list of lists its size", async () => {
    const t = await token("costs", "admin");
    const steps = [];
    for (const query of [
      "{ __typename }",
      '{ author(authorId: "nobody") { name } }',
      COSTLY,
      "{ authors(first: 5) { authorId } }",
    ]) {
      const res = await gql(s.url, query, undefined, { token: t });
      assert.equal(res.status, 200, res.text);
      steps.push(fields(res.headers).remaining);
    }
    assert.deepEqual(steps, [119, 118, 118 - 51, 118 - 51 - 1]);
    const f = fields((await gql(s.url, COSTLY, undefined, { token: t })).headers);
    assert.deepEqual([f.policy, f.limit, f.window], ["graphql", 120, 3600]);
  });

  it("over budget: HTTP 429, RATE_LIMITED with retryAfterSeconds, Retry-After; another caller is untouched", async () => {
    const t = await token("gql-flooder", "admin");
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await gql(s.url, COSTLY, undefined, { token: t }));
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 429, 429],
    );
    const last = responses[3];
    assert.equal(last.headers.get("content-type"), "application/graphql-response+json; charset=utf-8");
    const [error] = last.json.errors;
    assert.equal(error.extensions.code, "RATE_LIMITED");
    assert.equal(String(error.extensions.retryAfterSeconds), last.headers.get("retry-after"));
    assert.deepEqual([error.extensions.cost, error.extensions.remaining], [51, 18]);
    assert.match(error.message, /costs 51, more than the 18 left of 120 per window; retry in \d+ s/);
    assert.equal(fields(last.headers).remaining, 18);
    // What is left still buys a cheaper operation.
    assert.equal((await gql(s.url, "{ authors(first: 5) { authorId } }", undefined, { token: t })).status, 200);
    const other = await gql(s.url, COSTLY, undefined, { token: await token("gql-quiet", "admin") });
    assert.deepEqual([other.status, fields(other.headers).remaining], [200, 69]);
  });

  it("an operation that costs more than the whole budget is refused saying so, and spends nothing", async () => {
    const t = await token("greedy", "admin");
    // 1 + 100 × (1 + 10 × 1)
    const res = await gql(s.url, "{ authors(first: 100) { notes { author { authorId } } } }", undefined, { token: t });
    assert.equal(res.status, 429);
    assert.match(
      res.json.errors[0].message,
      /costs 1101, more than the whole budget of 120 per window; ask for fewer items/,
    );
    assert.equal(fields((await gql(s.url, "{ __typename }", undefined, { token: t })).headers).remaining, 119);
  });

  it("mutations spend the Mutation budget, apart from queries", async () => {
    const t = await token("writer", "admin");
    const create = 'mutation { createAuthor(input: { name: "A" }) { authorId } }';
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await gql(s.url, create, undefined, { token: t }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 429],
    );
    assert.deepEqual(
      answers.map((a) => [fields(a.headers).policy, fields(a.headers).remaining]),
      [
        ["graphql:Mutation", 2],
        ["graphql:Mutation", 1],
        ["graphql:Mutation", 0],
        ["graphql:Mutation", 0],
      ],
    );
    const read = await gql(s.url, "{ __typename }", undefined, { token: t });
    assert.deepEqual([read.status, fields(read.headers).policy, fields(read.headers).limit], [200, "graphql", 120]);
  });

  it("a document that does not parse still spends 1; anonymous callers are counted by address", async () => {
    const send = () =>
      fromAddress(`${s.url}/graphql`, "127.0.0.4", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
        body: JSON.stringify({ query: "{ nope" }),
      });
    const first = await send();
    assert.deepEqual(
      [first.status, first.json.errors[0].extensions.code, fields(first.headers).remaining],
      [400, "GRAPHQL_PARSE_FAILED", 119],
    );
    assert.equal(fields((await send()).headers).remaining, 118);
  });

  it("a document refused by validation spends what validation found it costs (at most the cost limit), not 1", async () => {
    const t = await token("refused", "admin");
    // 1 + 5 × (1 + 10 × 1) = 56, and a field that does not exist: refused, and charged.
    const res = await gql(s.url, "{ authors(first: 5) { notes { author { authorId } } } nope }", undefined, {
      token: t,
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(fields(res.headers).remaining, 120 - 56);
  });

  it("over graphql-ws too: an operation over budget is refused with RATE_LIMITED", async () => {
    const t = await token("ws-flooder", "admin");
    const client = createClient({
      url: s.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${t}` },
      retryAttempts: 0,
    });
    const run = () =>
      new Promise<unknown>((resolve) => {
        const results: unknown[] = [];
        client.subscribe(
          { query: COSTLY },
          { next: (r) => results.push(r), error: (e) => resolve(e), complete: () => resolve(results[0]) },
        );
      });
    try {
      assert.ok(((await run()) as { data?: unknown }).data);
      assert.ok(((await run()) as { data?: unknown }).data);
      const refused = (await run()) as { extensions?: { code?: string } }[];
      assert.equal(refused[0].extensions?.code, "RATE_LIMITED", JSON.stringify(refused));
    } finally {
      await client.dispose();
    }
  });
});

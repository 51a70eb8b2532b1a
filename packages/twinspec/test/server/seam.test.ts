// The seam (src/server/seam.ts), held to the libraries it stands in for. The request listener runs Koa's middleware
// itself: whatever the middleware leaves in the context, its answer must be the one Koa's own callback() gives
// (status, headers and body, for every kind of body Koa knows, ctx.respond = false, errors, app.currentContext). The
// access log line must be the one pino writes, byte for byte.
import assert from "node:assert/strict";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import Koa, { type Middleware } from "koa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createServerLogger } from "../../src/logger.js";
import { koaListener, logRequestLines, type RequestLine } from "../../src/server/seam.js";
import { ADMIN_TOKEN } from "../../../twinspec-dev/src/testing/tokens.js";
import { call, newAuthor, startServer, type TestServer } from "../support/server.js";

const PER_REQUEST = new Set(["x-request-id", "date", "ratelimit", "keep-alive", "connection"]);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function listen(listener: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_REQUEST.has(name)) headers[name] = value;
  });
  const body = await res.text();
  // Problems name their request: the ids differ, the rest must agree.
  return { status: res.status, headers, body: body.replace(/"requestId":"[^"]*"/, '"requestId":"-"') };
}

/** Serves `koa` through Koa's callback() and through koaListener, and asks both the same. */
async function bothWays(koa: Koa, requests: [string, RequestInit?][]): Promise<void> {
  const callback = koa.callback();
  const viaKoa = await listen((req, res) => void callback(req, res));
  const viaListener = await listen(koaListener(koa).listener);
  try {
    for (const [path, init] of requests) {
      const what = `${init?.method ?? "GET"} ${path}`;
      assert.deepEqual(await answer(viaListener.url + path, init), await answer(viaKoa.url + path, init), what);
    }
  } finally {
    viaKoa.server.close();
    viaListener.server.close();
  }
}

const BODIES: Record<string, Middleware> = {
  "/json": (ctx) => void (ctx.body = { id: "42", names: ["Ada", "Grace"] }),
  "/array": (ctx) => void (ctx.body = [1, 2, 3]),
  "/text": (ctx) => void (ctx.body = "plain words"),
  "/html": (ctx) => void ((ctx.type = "html"), (ctx.body = "<p>hi</p>")),
  "/bytes": (ctx) => void (ctx.body = Buffer.from([1, 2, 3, 250])),
  "/stream": (ctx) => void ((ctx.type = "text"), (ctx.body = Readable.from(["a", "b", "c"]))),
  "/blob": (ctx) => void (ctx.body = new Blob(["blob body"], { type: "text/plain" })),
  "/readable-stream": (ctx) => void (ctx.body = new Blob(["web stream"]).stream()),
  "/response": (ctx) => void (ctx.body = new Response("from a Response")),
  "/null": (ctx) => void (ctx.body = null),
  "/status-only": (ctx) => void (ctx.status = 202),
  "/no-content": (ctx) => void ((ctx.body = { dropped: true }), (ctx.status = 204)),
  "/not-modified": (ctx) => void ((ctx.body = "dropped"), (ctx.status = 304)),
  "/created": (ctx) => void ((ctx.status = 201), ctx.set("Location", "/json"), (ctx.body = { ok: true })),
  "/bypass": (ctx) => {
    ctx.respond = false;
    ctx.res.writeHead(200, { "content-type": "text/plain" });
    ctx.res.end("written by hand");
  },
  "/thrown": () => {
    throw new Error("boom");
  },
  "/refused": (ctx) => ctx.throw(422, "the name is missing"),
  "/class": (ctx) =>
    void (ctx.body = new (class Point {
      x = 1;
      y = 2;
    })()),
};

describe("the seam's request listener answers as Koa's own callback() does", () => {
  it("for every kind of body, status, ctx.respond = false and errors", async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(async (ctx, next) => {
      ctx.set("X-Outer", "1");
      await next();
    });
    koa.use((ctx, next) => (BODIES[ctx.path] ? BODIES[ctx.path](ctx, next) : next()));
    const paths = [...Object.keys(BODIES), "/unknown"];
    await bothWays(koa, [
      ...paths.map((path): [string] => [path]),
      ...paths.map((path): [string, RequestInit] => [path, { method: "HEAD" }]),
    ]);
  });

  it("reports errors as Koa does, to its own handler when the app has none: the process goes on", async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use((ctx) => {
      ctx.status = 200;
      ctx.res.flushHeaders();
      ctx.set("X-Too-Late", "1"); // throws: the head is written
    });
    const { url, server } = await listen(koaListener(koa).listener);
    try {
      assert.equal(koa.listenerCount("error"), 0);
      const reply = await fetch(`${url}/late`);
      assert.equal(reply.status, 200);
      await reply.text();
      assert.equal(koa.listenerCount("error"), 1, "Koa's onerror listens, as after callback()");
      assert.equal((await fetch(`${url}/again`)).status, 200);
    } finally {
      server.close();
    }
  });

  it("keeps app.currentContext across awaits when Koa is made with asyncLocalStorage", async () => {
    const koa = new Koa({ asyncLocalStorage: true });
    koa.use(async (ctx) => {
      await new Promise((resolve) => setImmediate(resolve));
      ctx.body = { same: koa.currentContext === ctx, path: koa.currentContext?.path };
    });
    await bothWays(koa, [["/where"]]);
    const { url, server } = await listen(koaListener(koa).listener);
    try {
      assert.deepEqual(await (await fetch(`${url}/where`)).json(), { same: true, path: "/where" });
    } finally {
      server.close();
    }
  });

  describe("for a whole Twinspec server", () => {
    let s: TestServer;
    before(async () => (s = await startServer()));
    after(() => s.close());

    it("REST reads and writes, HEAD, conditional reads, refusals, GraphQL, health and the docs", async () => {
      const { authorId } = await newAuthor(s.url);
      for (let i = 0; i < 60; i++) await newAuthor(s.url, `${i} ${"x".repeat(96)}`);
      const large = await call(`${s.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        json: { query: "{ authors(first: 60) { authorId name createdAt updatedAt } }" },
      });
      assert.ok(large.text.length > 8192, `${large.status}: ${large.text.length} characters`);
      const note = await call(`${s.url}/authors/${authorId}/notes`, {
        method: "POST",
        json: { title: "Both", body: "ways" },
      });
      assert.equal(note.status, 201);
      const etag = (await call(`${s.url}/authors/${authorId}`)).headers.get("etag")!;
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      const json = { ...admin, "content-type": "application/json" };
      await bothWays(s.app.koa, [
        [`/authors/${authorId}`, { headers: admin }],
        [`/authors/${authorId}`, { headers: { ...admin, "if-none-match": etag } }],
        [`/authors/${authorId}`, { method: "HEAD", headers: admin }],
        [`/authors/${authorId}`],
        [`/authors?limit=1`, { headers: admin }],
        [`/authors/nobody`, { headers: admin }],
        [`/authors?limit=0`, { headers: admin }],
        [note.headers.get("location")!, { headers: admin }],
        [
          `/authors/${authorId}`,
          { method: "PATCH", headers: { ...admin, "content-type": "application/merge-patch+json" }, body: "{}" },
        ],
        [
          "/graphql",
          {
            method: "POST",
            headers: { ...json, accept: "application/graphql-response+json" },
            body: JSON.stringify({ query: `{ author(authorId: "${authorId}") { authorId name } }` }),
          },
        ],
        ["/graphql", { method: "POST", headers: json, body: "{ not json" }],
        // A large result (more than 8,192 characters) is answered as its bytes.
        [
          "/graphql",
          {
            method: "POST",
            headers: json,
            body: JSON.stringify({ query: "{ authors(first: 60) { authorId name createdAt updatedAt } }" }),
          },
        ],
        ["/healthz"],
        ["/docs"],
        ["/openapi.json"],
        ["/nowhere"],
      ]);
    });
  });
});

describe("the seam's access log line is pino's", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "twinspec-seam-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

  it("byte for byte, escaping included, one or several at once, in order with the logger's other lines", () => {
    const inputs: RequestLine[] = [
      { requestId: "3b241101-e2bb-4255-8caf-4136c566a962", method: "GET", url: "/customers/42", status: 200, ms: 0 },
      { requestId: "caller.id:1_2-3", method: "POST", url: '/a"b\\c?q="x"&y=\\', status: 422, ms: 12_345 },
      { requestId: "r", method: "DELETE", url: "/caf\u00e9?\u00fc=\u00ff\u007f", status: 500, ms: 3 },
      { requestId: "r", method: "GET", url: `/${"x".repeat(150)}"`, status: 404, ms: 1 },
      { requestId: "r", method: "GET", url: "/tab\there\u0001", status: 400, ms: 2 },
      { requestId: "r", method: "GET", url: `/${"y".repeat(6_000)}`, status: 414, ms: 0 },
      { requestId: "r", method: "GET", url: `/${"\u00e9".repeat(2_500)}`, status: 404, ms: 0 },
    ];
    const file = path.join(dir, "server.log");
    const server = createServerLogger("info", undefined, fs.openSync(file, "w"));
    const written: string[] = [];
    // What pino writes for the same call, with the server logger's options.
    const reference = pino({ level: "info", base: undefined }, { write: (s: string) => written.push(s) });
    for (const line of inputs) {
      logRequestLines(server.logger, [line]);
      reference.info({ ...line }, "request");
      server.logger.info("between");
      reference.info("between");
    }
    // Several at once, as one turn of the event loop hands them over.
    logRequestLines(server.logger, inputs);
    for (const line of inputs) reference.info({ ...line }, "request");
    server.flush();
    assert.deepEqual(
      fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map(withoutTime),
      written.map((s) => withoutTime(s.trimEnd())),
    );
  });

  it("goes through pino where the logger is not the server's, or adds fields to every line (tracing), or is above info", () => {
    const line = { requestId: "r", method: "GET", url: "/", status: 200, ms: 0 };
    const written: string[] = [];
    const plain = pino(
      { base: undefined, mixin: () => ({ trace_id: "t" }) },
      { write: (s: string) => written.push(s) },
    );
    logRequestLines(plain, [line]);
    assert.equal(JSON.parse(written[0]).trace_id, "t");
    const file = path.join(dir, "traced.log");
    const traced = createServerLogger("info", () => ({ trace_id: "u" }), fs.openSync(file, "w"));
    logRequestLines(traced.logger, [line]);
    const quiet = createServerLogger("warn", undefined, fs.openSync(path.join(dir, "quiet.log"), "w"));
    logRequestLines(quiet.logger, [line]);
    traced.flush();
    quiet.flush();
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).trace_id, "u");
    assert.equal(fs.readFileSync(path.join(dir, "quiet.log"), "utf8"), "");
  });
});

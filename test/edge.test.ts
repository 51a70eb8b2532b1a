// Every transport through the same edge (packages/twinspec/src/http/policy.ts, server/upgrade.ts): a WebSocket
// subscription's upgrade, a GraphQL SSE stream and the REST event stream get the request id, the access log line and
// the application's middleware like any request, and their events still flow; an upgrade refused (wrong path, a bad
// handshake) is a problem answered by the same edge.
import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Middleware } from "koa";
import { pino } from "pino";
import WebSocket from "ws";
import { ADMIN_TOKEN } from "./support/auth.js";
import { changes, newCustomer } from "./support/events.js";
import { startServer, type TestServer } from "./support/server.js";
import { until } from "./support/wait.js";

const SUBSCRIBE = "subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId status } }";
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe("every transport through the same edge", function () {
  this.timeout(60_000);
  let s: TestServer;
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info", base: undefined }, { write: (line: string) => lines.push(JSON.parse(line)) });
  // The application's own middleware: it sees the request after the edge gave it its id.
  const seen: string[] = [];
  const app: Middleware = async (ctx, next) => {
    ctx.set("X-App-Seen", String(ctx.state.requestId));
    seen.push(`${ctx.method} ${ctx.path}`);
    await next();
  };
  before(async () => (s = await startServer({ logger, middleware: [app] })));
  after(() => s.close());

  /** The access log line of request `id`, once written. */
  async function lineOf(id: string) {
    await until(() => lines.some((l) => l.msg === "request" && l.requestId === id), `the log line of ${id}`, 10_000);
    const { method, url, status } = lines.find((l) => l.msg === "request" && l.requestId === id)!;
    return { method, url, status };
  }

  it("a WebSocket subscription's upgrade: its id and the middleware's header on the 101, its log line; events flow", async () => {
    const customerId = await newCustomer(s.url, "edge-ws");
    const socket = new WebSocket(`${s.url.replace("http", "ws")}/graphql`, "graphql-transport-ws", {
      headers: { "x-request-id": "edge-ws-1" },
    });
    try {
      const upgrade = await new Promise<IncomingMessage>((resolve, reject) => {
        socket.once("upgrade", resolve);
        socket.once("error", reject);
      });
      assert.equal(upgrade.statusCode, 101);
      assert.equal(upgrade.headers["x-request-id"], "edge-ws-1");
      assert.equal(upgrade.headers["x-app-seen"], "edge-ws-1", "the application's middleware ran on the upgrade");
      assert.deepEqual(await lineOf("edge-ws-1"), { method: "GET", url: "/graphql", status: 101 });
      assert.ok(seen.includes("GET /graphql"));

      const messages: { type: string; id?: string; payload?: unknown }[] = [];
      socket.on("message", (data) => messages.push(JSON.parse(String(data))));
      await new Promise((resolve) =>
        socket.readyState === WebSocket.OPEN ? resolve(null) : socket.once("open", resolve),
      );
      socket.send(JSON.stringify({ type: "connection_init", payload: AUTH }));
      await until(() => messages.some((m) => m.type === "connection_ack"), "connection_ack");
      socket.send(
        JSON.stringify({ id: "s1", type: "subscribe", payload: { query: SUBSCRIBE, variables: { c: customerId } } }),
      );
      await until(() => s.app.bus.listenerCount("orderStatusChanged") > 0, "the subscription to listen");
      const [made] = await changes(s.url, customerId, 1);
      await until(() => messages.some((m) => m.type === "next"), "the change over WebSocket");
      const next = messages.find((m) => m.type === "next")!;
      const { orderId, status } = (
        next.payload as { data: { orderStatusChanged: { orderId: string; status: string } } }
      ).data.orderStatusChanged;
      assert.equal(`${orderId} ${status}`, made);
    } finally {
      socket.close();
    }
  });

  it("an upgrade on another path: a 404 problem from the edge, with its id, the middleware's header and its log line", async () => {
    const socket = new WebSocket(`${s.url.replace("http", "ws")}/nowhere`, {
      headers: { "x-request-id": "edge-ws-2" },
    });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      socket.once("unexpected-response", (_req, response) => resolve(response));
      socket.once("upgrade", () => reject(new Error("upgraded")));
    });
    socket.once("error", () => {});
    assert.equal(res.statusCode, 404);
    assert.match(res.headers["content-type"] ?? "", /^application\/problem\+json/);
    assert.equal(res.headers["x-request-id"], "edge-ws-2");
    assert.equal(res.headers["x-app-seen"], "edge-ws-2");
    let body = "";
    for await (const chunk of res) body += chunk;
    assert.match(JSON.parse(body).detail, /served on \/graphql/);
    assert.deepEqual(await lineOf("edge-ws-2"), { method: "GET", url: "/nowhere", status: 404 });
  });

  it("a bad WebSocket handshake on /graphql: a 400 problem saying what is wrong, logged", async () => {
    const { port } = new URL(s.url);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        path: "/graphql",
        headers: { connection: "Upgrade", upgrade: "websocket", "x-request-id": "edge-ws-3" },
      });
      req.once("response", resolve);
      req.once("upgrade", () => reject(new Error("upgraded")));
      req.once("error", reject);
      req.end();
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers["x-request-id"], "edge-ws-3");
    let body = "";
    for await (const chunk of res) body += chunk;
    assert.match(JSON.parse(body).detail, /Sec-WebSocket-Key/);
    assert.deepEqual(await lineOf("edge-ws-3"), { method: "GET", url: "/graphql", status: 400 });
  });

  /** Opens an event stream; its head, and the messages read until `stop()`. */
  async function stream(path: string, init: RequestInit) {
    const controller = new AbortController();
    const res = await fetch(`${s.url}${path}`, { ...init, signal: controller.signal });
    let text = "";
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    })().catch(() => {});
    return {
      res,
      text: () => text,
      stop: async () => {
        controller.abort();
        await reading;
      },
    };
  }

  it("a GraphQL SSE stream: its id and the middleware's header on the stream's head, its log line; events carry ids", async () => {
    const customerId = await newCustomer(s.url, "edge-sse");
    const sse = await stream("/graphql/stream", {
      method: "POST",
      headers: {
        ...AUTH,
        "content-type": "application/json",
        accept: "text/event-stream",
        "x-request-id": "edge-sse-1",
      },
      body: JSON.stringify({ query: SUBSCRIBE, variables: { c: customerId } }),
    });
    try {
      assert.equal(sse.res.status, 200);
      assert.match(sse.res.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(sse.res.headers.get("x-request-id"), "edge-sse-1");
      assert.equal(sse.res.headers.get("x-app-seen"), "edge-sse-1");
      assert.deepEqual(await lineOf("edge-sse-1"), { method: "POST", url: "/graphql/stream", status: 200 });
      await until(() => s.app.bus.listenerCount("orderStatusChanged") > 0, "the subscription to listen");
      const [made] = await changes(s.url, customerId, 1);
      await until(() => sse.text().includes("event: next"), "the change over SSE");
      assert.match(sse.text(), /id: \d+\nevent: next\ndata: /, "the message names its event");
      assert.ok(sse.text().includes(JSON.stringify(made.split(" ")[1])));
    } finally {
      await sse.stop();
    }
    await until(
      () => s.app.bus.listenerCount("orderStatusChanged") === 0,
      "closing the stream to end the subscription",
    );
  });

  it("the REST event stream: its id and the middleware's header on the stream's head, its log line", async () => {
    const customerId = await newCustomer(s.url, "edge-rest");
    const events = await stream(`/customers/${customerId}/order-events`, {
      headers: { ...AUTH, accept: "text/event-stream", "x-request-id": "edge-rest-1" },
    });
    try {
      assert.equal(events.res.status, 200);
      assert.equal(events.res.headers.get("x-request-id"), "edge-rest-1");
      assert.equal(events.res.headers.get("x-app-seen"), "edge-rest-1");
      assert.deepEqual(await lineOf("edge-rest-1"), {
        method: "GET",
        url: `/customers/${customerId}/order-events`,
        status: 200,
      });
      await until(() => s.app.bus.listenerCount("orderStatusChanged") > 0, "the subscription to listen");
      await changes(s.url, customerId, 1);
      await until(() => /id: \d+\ndata: /.test(events.text()), "the change over the REST stream");
    } finally {
      await events.stop();
    }
  });
});

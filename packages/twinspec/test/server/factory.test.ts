// Slow and abusive clients against the real server (src/server/factory.ts), over raw sockets: 200 connections that
// trickle their headers a byte a second do not keep a normal request from its answer, and are themselves answered
// 408 and closed after the headers timeout; a stalled body gets 408; an idle keep-alive socket is closed; an
// oversized header section gets 431, a long URL 414, broken HTTP 400 — each as problem+json.
import assert from "node:assert/strict";
import net from "node:net";
import { ADMIN_TOKEN } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Raw {
  socket: net.Socket;
  /** everything received so far */
  text: () => string;
  /** resolves with everything received once the server closes the connection */
  closed: Promise<string>;
}

function connect(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    const closed = new Promise<string>((done) => socket.on("close", () => done(text)));
    socket.on("error", () => {}); // a reset after the answer is fine; `closed` still resolves
    socket.once("connect", () => resolve({ socket, text: () => text, closed }));
    socket.once("error", reject);
  });
}

/** status, headers (lower-case names) and parsed body of one HTTP/1.1 answer read off a socket */
function parse(raw: string) {
  const [head, body] = [raw.slice(0, raw.indexOf("\r\n\r\n")), raw.slice(raw.indexOf("\r\n\r\n") + 4)];
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, json: body ? JSON.parse(body) : undefined };
}

function assertProblem(raw: string, status: number, detail: RegExp) {
  const res = parse(raw);
  assert.equal(res.status, status, raw);
  assert.equal(res.headers["content-type"], "application/problem+json");
  assert.equal(res.headers.connection, "close");
  assert.equal(res.json.status, status);
  assert.match(res.json.detail, detail);
  assert.equal(res.json.requestId, res.headers["x-request-id"]);
}

describe("slow and abusive clients", function () {
  this.timeout(30_000);
  let s: TestServer;
  let port: number;
  const limits = {
    headersTimeoutMs: 3_000,
    requestTimeoutMs: 4_000,
    keepAliveTimeoutMs: 1_000,
    maxHeaderBytes: 4_096,
    maxUrlLength: 1_000,
  };
  before(async () => {
    s = await startServer({ server: limits });
    port = Number(new URL(s.url).port);
  });
  after(() => s.close());

  it("200 connections trickling headers 1 byte/s: a normal request is still answered in < 1 s; they get 408 and are closed", async () => {
    const head = `GET /authors HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`;
    const slow = await Promise.all(Array.from({ length: 200 }, () => connect(port)));
    let sent = 0;
    const trickle = setInterval(() => {
      for (const c of slow) if (!c.socket.destroyed) c.socket.write(head[sent]);
      sent++;
    }, 1_000);
    try {
      await sleep(1_500);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const res = await call(`${s.url}/authors`);
        times.push(performance.now() - started);
        assert.equal(res.status, 200);
      }
      console.log(`      normal requests among 200 trickling connections: ${times.map(Math.round).join(", ")} ms`);
      assert.ok(Math.max(...times) < 1_000, `normal requests took ${times.map(Math.round).join(", ")} ms`);
      const answers = await Promise.all(slow.map((c) => c.closed));
      assert.ok(sent < head.length, "none of them finished its headers");
      for (const raw of answers) assertProblem(raw, 408, /within 3000 ms/);
    } finally {
      clearInterval(trickle);
      for (const c of slow) c.socket.destroy();
    }
  });

  it("a body that stalls → 408 problem+json, connection closed; the server goes on", async () => {
    const c = await connect(port);
    c.socket.write(
      `POST /authors HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    const started = Date.now();
    assertProblem(await c.closed, 408, /whole request within 4000 ms/);
    assert.ok(Date.now() - started >= limits.requestTimeoutMs - 500, "not before the request timeout");
    assert.equal((await call(`${s.url}/authors`)).status, 200);
  });

  it("an idle keep-alive connection is closed after the keep-alive timeout", async () => {
    const c = await connect(port);
    c.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const started = Date.now();
    const raw = await c.closed;
    assert.equal(parse(raw).status, 200);
    const idle = Date.now() - started;
    assert.ok(
      idle >= limits.keepAliveTimeoutMs - 200 && idle < limits.keepAliveTimeoutMs + 2_000,
      `closed after ${idle} ms`,
    );
  });

  it("a header section over MAX_HEADER_BYTES → 431 problem+json", async () => {
    const c = await connect(port);
    c.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(5_000)}\r\n\r\n`);
    assertProblem(await c.closed, 431, /larger than 4096 bytes/);
  });

  it("a URL over MAX_URL_LENGTH → 414 problem+json (with the request id)", async () => {
    const res = await call(`${s.url}/authors?q=${"a".repeat(1_200)}`);
    assert.equal(res.status, 414);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.match(res.json.detail, /at most 1000 are accepted/);
    assert.equal(res.json.requestId, res.headers.get("x-request-id"));
    assert.equal((await call(`${s.url}/authors?q=${"a".repeat(900)}`)).status, 200);
  });

  it("a request that is not HTTP → 400 problem+json", async () => {
    const c = await connect(port);
    c.socket.write("HELLO THERE\r\n\r\n");
    assertProblem(await c.closed, 400, /not valid HTTP\/1\.1/);
  });
});

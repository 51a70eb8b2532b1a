// The fuzzers' fetch (src/testing/fuzz/support.ts `send`) against a real socket server: a connection closed before
// any answer is sent again once; a server that never answers is reported with the cause, not as "fetch failed".
import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { send } from "../../../src/testing/fuzz/support.js";

const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
const FAILED = "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";

describe("the fuzzers' fetch", () => {
  const servers: Server[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  /** A server on an ephemeral port that hands each request's socket to `answer` with its number (0 first). */
  async function serve(answer: (socket: Socket, n: number) => void) {
    const seen = { url: "", requests: 0 };
    const server = createServer((socket) => socket.once("data", () => answer(socket, seen.requests++)));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    seen.url = `http://127.0.0.1:${address.port}/`;
    return seen;
  }

  it("sends a request again when its connection is closed before any answer, and reads the second answer", async () => {
    const server = await serve((socket, n) => (n === 0 ? socket.destroy() : socket.end(OK)));
    assert.equal((await send(server.url, { method: "HEAD" })).status, 200);
    assert.equal(server.requests, 2);
  });

  it("names the cause when the connection fails again, and sends it no third time", async () => {
    const server = await serve((socket) => socket.destroy());
    await assert.rejects(send(server.url, { method: "GET" }), (error: Error) => {
      assert.match(error.message, /^the connection failed twice, with no answer: .+ \((UND_ERR_SOCKET|ECONNRESET)\)$/);
      return true;
    });
    assert.equal(server.requests, 2);
  });

  it("does not send again once an answer came, whatever its status", async () => {
    const server = await serve((socket) => socket.end(FAILED));
    assert.equal((await send(server.url, { method: "POST", body: "x" })).status, 500);
    assert.equal(server.requests, 1);
  });
});

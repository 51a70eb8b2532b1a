// HeadersAtOnce (src/server/head-writer.ts) keeps a response's headers itself and writes them with the head in one call;
// everything a handler can do with headers must come out as with Node's own ServerResponse. Each script below runs
// on two real servers, one with Node's class and one with ours: what the script observes (values read, errors
// thrown) and the raw bytes of the answer (but for Date) must be the same.
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createHttpServer } from "../../src/server/factory.js";
import { closeConnectionsAfterAnswers, HeadersAtOnce } from "../../src/server/head-writer.js";

type Script = (res: ServerResponse, seen: unknown[]) => void;

const attempt = (seen: unknown[], action: () => unknown) => {
  try {
    seen.push(action());
  } catch (error) {
    seen.push(`throws ${(error as NodeJS.ErrnoException).code}: ${(error as Error).message}`);
  }
};
const plain = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));

const scripts: Record<string, Script> = {
  "set, replace by another case, read back, end with a body": (res, seen) => {
    res.setHeader("X-One", "1");
    res.setHeader("Content-Type", "text/plain");
    res.setHeader("x-one", "2");
    res.setHeader("Set-Cookie", ["a=1", "b=2"]);
    res.setHeader("X-Number", 42);
    seen.push(res.getHeader("X-ONE"), res.getHeader("x-number"), res.hasHeader("set-cookie"), res.hasHeader("nope"));
    seen.push(
      res.getHeaderNames(),
      plain(res.getHeaders()),
      (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames(),
    );
    res.end("hello");
    seen.push(res.getHeader("x-one"), res.headersSent);
  },
  "append to a field, to an absent one, and arrays": (res, seen) => {
    res.setHeader("Vary", "Accept");
    res.appendHeader("vary", "Origin");
    res.appendHeader("X-List", ["a", "b"]);
    res.appendHeader("X-List", "c");
    seen.push(res.getHeader("vary"), res.getHeader("x-list"));
    res.end();
  },
  "remove fields, Content-Length and Date among them": (res, seen) => {
    res.setHeader("X-Gone", "1");
    res.setHeader("X-Kept", "1");
    res.setHeader("Content-Length", "5");
    res.removeHeader("x-gone");
    res.removeHeader("not-there");
    res.removeHeader("Date");
    res.removeHeader("content-length");
    seen.push(res.getHeaderNames());
    res.end("12345");
  },
  "writeHead with an object over fields set before": (res, seen) => {
    res.setHeader("X-A", "1");
    res.setHeader("X-B", "1");
    res.writeHead(201, { "x-b": "2", "X-C": "3" });
    seen.push(res.getHeader("x-b"), res.getHeaderNames());
    res.end();
  },
  "writeHead with a flat array and a reason over fields set before": (res, seen) => {
    res.setHeader("X-A", "1");
    res.setHeader("X-Dup", "0");
    res.writeHead(202, "Taken", ["X-Dup", "1", "X-Dup", "2", "X-New", "n"]);
    seen.push(res.getHeader("x-dup"), res.statusMessage);
    res.end("ok");
  },
  "writeHead alone, with an object": (res, seen) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": 2 });
    seen.push(res.getHeader("content-type"), res.getHeaderNames());
    res.end("{}");
  },
  "invalid names and values, and fields after the head is sent": (res, seen) => {
    attempt(seen, () => res.setHeader("Bad Name", "x"));
    attempt(seen, () => res.setHeader("X-Bad", "a\nb"));
    attempt(seen, () => res.setHeader("X-Undefined", undefined as unknown as string));
    attempt(seen, () => res.setHeader("X-Array", ["fine", "bad\u0000"]));
    attempt(seen, () => res.setHeader("", "x"));
    attempt(seen, () => res.setHeader(7 as unknown as string, "x"));
    attempt(seen, () => res.setHeader("X-Latin1", "caf\u00e9"));
    attempt(seen, () => res.setHeader("X-Wide", "\u20ac"));
    attempt(seen, () => res.appendHeader("X-Bad", "a\rb"));
    attempt(seen, () => res.getHeader(7 as unknown as string));
    attempt(seen, () => res.writeHead(200, ["X-Odd"]));
    res.setHeader("X-Fine", "1");
    res.flushHeaders();
    attempt(seen, () => res.setHeader("X-Late", "1"));
    attempt(seen, () => res.removeHeader("X-Fine"));
    attempt(seen, () => res.appendHeader("X-Fine", "2"));
    seen.push(res.getHeader("x-fine"));
    res.end("done");
  },
  "HEAD-like empty answers: 204 and 304 with fields": (res, seen) => {
    res.statusCode = 304;
    res.setHeader("ETag", '"v1"');
    res.setHeader("Content-Length", "10");
    res.end();
    seen.push(res.getHeader("etag"));
  },
  "chunked body without a length": (res, seen) => {
    res.setHeader("Content-Type", "text/plain");
    res.write("a");
    seen.push(res.headersSent);
    res.end("b");
  },
  "setHeaders from a Headers object, cookies among them": (res, seen) => {
    res.setHeader("X-Old", "1");
    res.setHeaders(
      new Headers([
        ["X-New", "2"],
        ["Set-Cookie", "a=1"],
        ["Set-Cookie", "b=2"],
        ["x-old", "3"],
      ]),
    );
    seen.push(plain(res.getHeaders()));
    res.end();
  },
  "writeHeader, Node's legacy alias, over fields set before": (res, seen) => {
    res.setHeader("X-A", "1");
    (res as unknown as { writeHeader(status: number, headers: Record<string, string>): void }).writeHeader(200, {
      "X-B": "2",
    });
    seen.push(res.getHeader("x-b"));
    res.end("ok");
  },
  "Connection: close set by the handler": (res) => {
    res.setHeader("Connection", "close");
    res.end("bye");
  },
};

/** The raw answer to one request, Date's value blanked. */
function rawAnswer(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.end(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text.replace(/^Date: .*$/m, "Date: -")));
    socket.on("error", reject);
  });
}

/** The Connection field of the answer to a keep-alive request. */
function connectionField(port: number, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    socket.setEncoding("latin1");
    socket.once("data", (text: string) => {
      socket.destroy();
      resolve(text.match(/^Connection: (.*)$/m)?.[1]);
    });
    socket.on("error", reject);
  });
}

async function serve(
  options: Parameters<typeof createServer>[0],
): Promise<{ server: Server; port: number; seen: Map<string, unknown[]> }> {
  const seen = new Map<string, unknown[]>();
  const server = createServer(options, (req, res) => {
    const name = decodeURIComponent(req.url!.slice(1));
    const observed: unknown[] = [];
    seen.set(name, observed);
    scripts[name](res, observed);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe("HeadersAtOnce: a response's headers as Node's ServerResponse keeps them", () => {
  let node: Awaited<ReturnType<typeof serve>>;
  let ours: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    node = await serve({});
    ours = await serve({ ServerResponse: HeadersAtOnce });
  });
  after(() => {
    node.server.close();
    ours.server.close();
  });

  for (const name of Object.keys(scripts)) {
    it(name, async () => {
      const path = `/${encodeURIComponent(name)}`;
      const [expected, actual] = await Promise.all([rawAnswer(node.port, path), rawAnswer(ours.port, path)]);
      assert.equal(actual, expected);
      assert.deepEqual(plain(ours.seen.get(name)), plain(node.seen.get(name)));
      assert.ok(node.seen.get(name), "the script ran");
    });
  }

  it("a draining server's answers not yet begun say Connection: close; answers already sent and other servers' do not", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = createServer({ ServerResponse: HeadersAtOnce }, (req, res) => {
      if (req.url === "/held") void held.then(() => res.end("late"));
      else res.end("now");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      assert.equal(await connectionField(port, "/before"), "keep-alive");
      const inFlight = connectionField(port, "/held");
      await new Promise((resolve) => setTimeout(resolve, 50));
      closeConnectionsAfterAnswers(server);
      release();
      assert.equal(await inFlight, "close", "the answer in flight when draining began");
      assert.equal(await connectionField(port, "/after"), "close", "a request arriving on an open connection");
      assert.equal(
        await connectionField(ours.port, `/${encodeURIComponent("chunked body without a length")}`),
        "keep-alive",
        "another server's answers are untouched",
      );
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it("the server's own responses are HeadersAtOnce (createHttpServer)", async () => {
    let made: unknown;
    const server = createHttpServer((_req, res) => {
      made = res;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    await rawAnswer((server.address() as AddressInfo).port, "/");
    server.close();
    assert.ok(made instanceof HeadersAtOnce);
  });
});

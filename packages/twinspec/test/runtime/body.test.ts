// body.ts: media types, body presence and reading a body by its media type within a limit; then the one body
// reader over the wire, through both transports that use it (REST and GraphQL POST): limits, short and abandoned
// bodies, BOMs and characters split between chunks answer alike on both.
import assert from "node:assert/strict";
import { request, type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { Readable } from "node:stream";
import type { Context } from "koa";
import { decodeText, hasBody, isJson, mediaType, readBody, readBytes } from "../../src/runtime/body.js";
import { HttpError } from "../../src/runtime/problem.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { startServer, type TestServer } from "../support/server.js";
import { sleep, until } from "../support/wait.js";

/** Just enough of a Koa context for body.ts: headers, the raw request stream and its charset. */
function fakeContext(headers: Record<string, string>, text: string | Buffer[] = "", charset = ""): Context {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    get: (name: string) => lower[name.toLowerCase()] ?? "",
    req: Readable.from(typeof text === "string" ? [Buffer.from(text)] : text),
    request: { charset },
  } as unknown as Context;
}
const read = (type: string, text: string, limit = 1024, charset = "") =>
  readBody(fakeContext({ "Content-Length": String(Buffer.byteLength(text)) }, text, charset), type, limit);

async function rejectsWith(promise: Promise<unknown>, status: number, detail: RegExp): Promise<HttpError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => (caught = error),
  );
  assert.ok(caught instanceof HttpError, `expected an HttpError, got ${String(caught)}`);
  assert.equal(caught.status, status);
  assert.match(caught.problem.detail ?? "", detail);
  return caught;
}

describe("mediaType", () => {
  const cases: [string | undefined, string][] = [
    ["application/json", "application/json"],
    ["Application/JSON; charset=utf-8", "application/json"],
    ["  text/plain ;q=1", "text/plain"],
    ["", ""],
    [undefined, ""],
  ];
  for (const [header, expected] of cases)
    it(`${JSON.stringify(header)} → ${JSON.stringify(expected)}`, () => assert.equal(mediaType(header), expected));
});

describe("isJson", () => {
  const cases: [string, boolean][] = [
    ["application/json", true],
    ["application/problem+json", true],
    ["application/merge-patch+json", true],
    ["text/json", false],
    ["application/jsonl", false],
    ["application/x-www-form-urlencoded", false],
  ];
  for (const [type, expected] of cases) it(`${type} → ${expected}`, () => assert.equal(isJson(type), expected));
});

describe("hasBody", () => {
  const cases: [Record<string, string>, boolean][] = [
    [{}, false],
    [{ "Content-Length": "0" }, false],
    [{ "Content-Length": "12" }, true],
    [{ "Transfer-Encoding": "chunked" }, true],
  ];
  for (const [headers, expected] of cases)
    it(`${JSON.stringify(headers)} → ${expected}`, () => assert.equal(hasBody(fakeContext(headers)), expected));
});

describe("readBody", () => {
  const parsed: [string, string, unknown][] = [
    ["application/json", '{"a":[1,true]}', { a: [1, true] }],
    ["application/merge-patch+json", '{"a":null}', { a: null }],
    ["application/x-www-form-urlencoded", "a=1&b=x+y&c=%C3%A9", { a: "1", b: "x y", c: "é" }],
    ["text/plain", "just text", "just text"],
  ];
  for (const [type, text, expected] of parsed) {
    it(`parses ${type}`, async () => assert.deepEqual(await read(type, text), expected));
  }

  it("answers 400 with a body field error for malformed JSON", async () => {
    const error = await rejectsWith(read("application/json", "{nope"), 400, /not valid JSON/);
    assert.deepEqual(error.problem.errors, [{ in: "body", pointer: "", message: "malformed JSON" }]);
  });

  it("answers 413 naming the limit for a body over it", async () => {
    await rejectsWith(read("application/json", '{"a":"0123456789"}', 8), 413, /limit of 8 bytes/);
  });

  it("answers 415 for a charset it cannot decode", async () => {
    await rejectsWith(read("text/plain", "abc", 1024, "x-no-such-charset"), 415, /x-no-such-charset/);
  });

  it("answers 400 when the stream ends before Content-Length", async () => {
    const ctx = fakeContext({ "Content-Length": "100" }, "short");
    await rejectsWith(readBody(ctx, "text/plain", 1024), 400, /could not be read completely/);
  });
});

describe("readBytes", () => {
  it("answers a body of one chunk with that chunk, several joined", async () => {
    const one = Buffer.from("abc");
    assert.equal(await readBytes(Readable.from([one]), 10, "3"), one);
    assert.deepEqual(
      await readBytes(Readable.from([Buffer.from("ab"), Buffer.from("c")]), 10, undefined),
      Buffer.from("abc"),
    );
    assert.deepEqual(await readBytes(Readable.from([]), 10, "0"), Buffer.alloc(0));
  });

  it("answers 413 at once, reading nothing, when Content-Length declares more than the limit", async () => {
    const stream = Readable.from([Buffer.from("abc")]);
    await rejectsWith(readBytes(stream, 2, "3"), 413, /^The request body is larger than the limit of 2 bytes\.$/);
    assert.equal(stream.readableFlowing, null, "not read");
  });

  it("answers 413 with the caller's detail once a stream without Content-Length passes the limit", async () => {
    await rejectsWith(
      readBytes(Readable.from([Buffer.from("ab"), Buffer.from("cd")]), 3, undefined, (n) => `over ${n}`),
      413,
      /^over 3$/,
    );
  });

  it("answers 400 for a stream that fails, is destroyed before its end, or was already decoded", async () => {
    const failing = new Readable({ read() {} });
    const failed = readBytes(failing, 10, undefined);
    failing.destroy(new Error("ECONNRESET"));
    await rejectsWith(failed, 400, /could not be read completely/);
    const gone = new Readable({ read() {} });
    const abandoned = readBytes(gone, 10, "5");
    gone.push(Buffer.from("ab"));
    setImmediate(() => gone.destroy());
    await rejectsWith(abandoned, 400, /could not be read completely/);
    const decoded = Readable.from([Buffer.from("abc")], { objectMode: false }).setEncoding("utf8");
    await rejectsWith(readBytes(decoded, 10, "3"), 400, /could not be read completely/);
  });
});

describe("decodeText", () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const cases: [string, Buffer, string, string][] = [
    ["UTF-8 by default, its BOM dropped", Buffer.concat([bom, Buffer.from("é")]), "", "é"],
    ["a BOM only at the start", Buffer.concat([Buffer.from("a"), bom]), "utf-8", "a\ufeff"],
    ["utf8, any case", Buffer.from("ü"), "UTF8", "ü"],
    ["ISO-8859-1 (windows-1252)", Buffer.from([0x63, 0x61, 0x66, 0xe9]), "iso-8859-1", "café"],
    ["UTF-16LE, its BOM dropped", Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), "utf-16le", "hi"],
  ];
  for (const [name, bytes, charset, expected] of cases)
    it(name, () => assert.equal(decodeText(bytes, charset), expected));

  it("refuses malformed UTF-8 (400) rather than store U+FFFD in its place", () => {
    for (const charset of ["", "utf-8"]) {
      assert.throws(
        () => decodeText(Buffer.from([0x61, 0xc3, 0x28, 0xf0, 0x9f]), charset),
        (e: unknown) => e instanceof HttpError && e.status === 400 && /not valid UTF-8/.test(e.problem.detail ?? ""),
      );
    }
  });

  it("answers 415 for a charset it does not know", () => {
    assert.throws(
      () => decodeText(Buffer.from("a"), "x-no-such-charset"),
      (e: unknown) => e instanceof HttpError && e.status === 415 && /x-no-such-charset/.test(e.problem.detail ?? ""),
    );
  });

  it("readBody decodes a character split between chunks whole, and keeps the BOM of bytes", async () => {
    const e = Buffer.from('{"a":"é"}');
    const split = [e.subarray(0, 7), e.subarray(7)];
    assert.deepEqual(
      await readBody(fakeContext({ "Content-Length": String(e.length) }, split), "application/json", 1024),
      { a: "é" },
    );
    const withBom = Buffer.from([0xef, 0xbb, 0xbf, 0x61]);
    assert.deepEqual(
      await readBody(fakeContext({ "Content-Length": "4" }, [withBom]), "application/octet-stream", 1024),
      withBom,
    );
  });
});

describe("request bodies over the wire, REST and GraphQL alike", function () {
  this.timeout(20_000);
  const LIMIT = 512;
  let s: TestServer;
  let port: number;
  /** the final status of each request the server answered, by path */
  const answered: string[] = [];
  before(async () => {
    s = await startServer({ bodyLimit: LIMIT });
    port = Number(new URL(s.url).port);
    s.app.around(async (ctx, next) => {
      try {
        await next();
      } finally {
        answered.push(`${ctx.path} ${ctx.status}`);
      }
    });
  });
  after(() => s.close());

  const person = (name: string) => ({ name });
  const transports = [
    {
      name: "REST",
      path: "/authors",
      tooLarge: `The request body is larger than the limit of ${LIMIT} bytes.`,
      body: (firstName: string) => JSON.stringify(person(firstName)),
      firstName: (json: any) => json.name,
    },
    {
      name: "GraphQL",
      path: "/graphql",
      tooLarge: `The request body is larger than ${LIMIT} bytes.`,
      body: (firstName: string) =>
        JSON.stringify({
          query: "mutation($i: CreateAuthorInput!) { createAuthor(input: $i) { name } }",
          variables: { i: person(firstName) },
        }),
      firstName: (json: any) => json.data.createAuthor.name,
    },
  ];
  const head = (path: string, headers: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n${headers}\r\n`;

  /** Writes to a raw connection; resolves with all it received once the server closes it. */
  function raw(write: (socket: net.Socket) => void): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString("latin1")));
      socket.on("close", () => resolve(text));
      socket.once("error", reject);
      socket.once("connect", () => write(socket));
    });
  }

  /** A POST on a connection of its own, written by `send` (chunked, or as it sets), answered: status and parsed body. */
  function post(
    path: string,
    headers: Record<string, string>,
    send: (req: ReturnType<typeof request>) => unknown,
  ): Promise<{ status: number; json: any; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${s.url}${path}`,
        {
          method: "POST",
          agent: false,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...headers },
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(body), headers: res.headers }));
        },
      );
      req.on("error", reject);
      Promise.resolve(send(req)).catch(reject);
    });
  }

  async function answeredWith(path: string, from: number): Promise<string[]> {
    await until(() => answered.slice(from).some((a) => a.startsWith(`${path} `)), `an answer to ${path}`);
    return answered.slice(from).filter((a) => a.startsWith(`${path} `));
  }

  for (const t of transports) {
    describe(t.name, () => {
      it("Content-Length over the limit → 413 problem naming it; the connection then serves its next request", async () => {
        const big = t.body("x".repeat(LIMIT));
        const text = await raw((socket) =>
          socket.write(
            `${head(t.path, `Content-Length: ${big.length}\r\n`)}${big}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
          ),
        );
        const answers = text.split(/(?=HTTP\/1\.1 )/);
        assert.equal(answers.length, 2, text);
        assert.match(answers[0], /^HTTP\/1\.1 413 /);
        assert.match(answers[0], /content-type: application\/problem\+json/i);
        assert.equal(JSON.parse(answers[0].slice(answers[0].indexOf("\r\n\r\n") + 4)).detail, t.tooLarge);
        assert.match(answers[1], /^HTTP\/1\.1 200 [^]*\{"status":"ok"\}$/);
      });

      it("a chunked body (no Content-Length) → 413 once it streams past the limit, before the client has sent it all", async () => {
        let sent = 0;
        const res = await post(t.path, { "transfer-encoding": "chunked" }, (req) => {
          req.write(t.body("x").slice(0, -1));
          const more = () => {
            if (sent > 64 * 1024) return req.end("}");
            sent += 256;
            req.write(" ".repeat(256), () => setImmediate(more));
          };
          more();
        });
        assert.equal(res.status, 413);
        assert.deepEqual([res.json.status, res.json.detail], [413, t.tooLarge]);
        assert.ok(sent < 64 * 1024, `answered only after ${sent} bytes`);
        // The rest of the body is not read: the connection closes after the answer, so no client sends its next
        // request on it (it would wait behind the unread body, then be reset).
        assert.equal(res.headers.connection, "close");
      });

      it("a body that ends short of its Content-Length (the client half-closes) → 400 for the request, not a 500", async () => {
        const from = answered.length;
        const text = await raw((socket) => socket.end(`${head(t.path, "Content-Length: 100\r\n")}{"query":`));
        assert.match(text, /^HTTP\/1\.1 400 /);
        assert.deepEqual(await answeredWith(t.path, from), [`${t.path} 400`]);
      });

      it("a client that goes away mid-body → 400 for the request, not a 500; the server goes on", async () => {
        const from = answered.length;
        await raw((socket) => {
          socket.write(`${head(t.path, "Content-Length: 100\r\n")}{"query":`);
          setTimeout(() => socket.destroy(), 50);
        });
        assert.deepEqual(await answeredWith(t.path, from), [`${t.path} 400`]);
        const res = await post(t.path, {}, (req) => req.end(t.body("Ada")));
        assert.equal(t.firstName(res.json), "Ada");
      });

      it("a UTF-8 BOM before the JSON is dropped", async () => {
        const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t.body("Ada"))]);
        const res = await post(t.path, { "content-length": String(body.length) }, (req) => req.end(body));
        assert.equal(t.firstName(res.json), "Ada");
      });

      it("a character split between two chunks decodes whole", async () => {
        const body = Buffer.from(t.body("Zoë"));
        const at = body.indexOf(Buffer.from("ë")) + 1; // between the two bytes of ë
        const res = await post(t.path, {}, async (req) => {
          req.write(body.subarray(0, at));
          await sleep(30);
          req.end(body.subarray(at));
        });
        assert.equal(t.firstName(res.json), "Zoë");
      });
    });
  }
});

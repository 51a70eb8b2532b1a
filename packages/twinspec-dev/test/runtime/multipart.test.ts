// multipart/form-data request bodies over real HTTP, through the generated wiring of test/fixtures/uploads/uploads.yaml
// (test/golden/uploads/): files with name, media type, size and bytes; text parts coerced by their schema; JSON parts;
// validation of fields and files (encoding's media types); the body limit while streaming; malformed bodies.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { restRoutes, type RestHandlers, type UploadedFile } from "../golden/uploads/rest.js";
import { mediaAllowed } from "../../../twinspec/src/runtime/multipart.js";

const describeFile = (f: UploadedFile) => ({
  filename: f.filename,
  mediaType: f.mediaType,
  size: f.size,
  sha256: createHash("sha256").update(f.content).digest("hex"),
});

const handlers: RestHandlers = {
  async putAvatar(req) {
    const { image, attachments, ...fields } = req.body;
    // The handler's types: image is an UploadedFile, attachments UploadedFile[] | undefined, size a number.
    const size: number | undefined = fields.size;
    return {
      status: 200,
      body: {
        curatorId: req.params.curatorId,
        image: describeFile(image),
        attachments: attachments?.map(describeFile),
        ...fields,
        size,
      },
    };
  },
  async postDocument(req) {
    if (req.contentType === "multipart/form-data")
      return {
        status: 201,
        body: {
          file: req.body.file && describeFile(req.body.file),
          scan: req.body.scan && describeFile(req.body.scan),
        },
      };
    return { status: 201, body: { json: req.body ?? null } };
  },
};

const LIMIT = 4096;
let server: Server;
let url: string;

before(async () => {
  const app = new Koa();
  app.use(restRoutes(handlers, { bodyLimit: LIMIT, validateResponses: true }));
  const handle = app.callback();
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
const form = (parts: [string, string | Blob, string?][]) => {
  const data = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") data.append(name, value);
    else data.append(name, value, filename);
  }
  return data;
};
type Answer = { errors: { pointer: string; message: string }[]; detail: string } & Record<string, unknown>;
async function put(body: FormData | string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/curators/c1/avatar`, { method: "PUT", body, headers });
  return { status: res.status, type: res.headers.get("content-type"), json: (await res.json()) as Answer };
}
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("multipart/form-data bodies", () => {
  it("hands the handler each file (name, media type, size, bytes) and the other parts coerced by their schema", async () => {
    const res = await put(
      form([
        ["image", new Blob([png], { type: "image/png" }), "me.png"],
        ["caption", "hello"],
        ["crop", JSON.stringify({ x: 1, y: 2 })],
        ["tags", "a"],
        ["tags", "b"],
        ["attachments", new Blob(["one"], { type: "text/plain" }), "1.txt"],
        ["attachments", new Blob(["two!"], { type: "application/pdf" }), "2.pdf"],
        ["size", "42"],
      ]),
    );
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json, {
      curatorId: "c1",
      image: { filename: "me.png", mediaType: "image/png", size: 8, sha256: sha(png) },
      attachments: [
        { filename: "1.txt", mediaType: "text/plain", size: 3, sha256: sha(Buffer.from("one")) },
        { filename: "2.pdf", mediaType: "application/pdf", size: 4, sha256: sha(Buffer.from("two!")) },
      ],
      caption: "hello",
      crop: { x: 1, y: 2 },
      tags: ["a", "b"],
      size: 42,
    });
  });

  it("reads a file with any media type where encoding allows no particular one, and an optional body left out", async () => {
    const res = await fetch(`${url}/documents`, {
      method: "POST",
      body: form([["scan", new Blob(["%PDF"], { type: "application/pdf" }), "s.pdf"]]),
    });
    assert.deepEqual(
      [res.status, await res.json()],
      [201, { scan: { filename: "s.pdf", mediaType: "application/pdf", size: 4, sha256: sha(Buffer.from("%PDF")) } }],
    );
    const none = await fetch(`${url}/documents`, { method: "POST" });
    assert.deepEqual([none.status, await none.json()], [201, { json: null }]);
  });

  // [name, parts, expected errors as "pointer message"]
  const invalid: [string, [string, string | Blob, string?][], string[]][] = [
    ["a required file missing", [["caption", "x"]], ["/image is required"]],
    [
      "a file of a media type encoding does not allow",
      [["image", new Blob(["x"], { type: "text/plain" }), "x.txt"]],
      ["/image has media type text/plain; allowed: image/png, image/jpeg"],
    ],
    [
      "a file where the schema wants text",
      [
        ["image", new Blob([png], { type: "image/png" }), "a.png"],
        ["caption", new Blob(["x"]), "c.txt"],
      ],
      ["/caption must be a value, not a file"],
    ],
    [
      "two files for one file field",
      [
        ["image", new Blob([png], { type: "image/png" }), "a.png"],
        ["image", new Blob([png], { type: "image/png" }), "b.png"],
      ],
      ["/image must be one file, not several"],
    ],
    [
      "text fields against the schema",
      [
        ["image", new Blob([png], { type: "image/png" }), "a.png"],
        ["caption", "x".repeat(21)],
        ["size", "abc"],
        ["crop", '{"x":1}'],
      ],
      ["/caption must NOT have more than 20 characters", "/size must be integer", "/crop/y is required"],
    ],
    [
      "too many files for an array of files",
      [
        ["image", new Blob([png], { type: "image/png" }), "a.png"],
        ...[1, 2, 3].map((i) => ["attachments", new Blob(["a"]), `${i}`] as [string, Blob, string]),
      ],
      ["/attachments must NOT have more than 2 items"],
    ],
  ];
  for (const [name, parts, expected] of invalid) {
    it(`answers 400 naming each bad part: ${name}`, async () => {
      const res = await put(form(parts));
      assert.equal(res.status, 400, JSON.stringify(res.json));
      assert.equal(res.type, "application/problem+json");
      assert.deepEqual(res.json.errors.map((e) => `${e.pointer} ${e.message}`).sort(), [...expected].sort());
    });
  }

  it("answers 413 for a body over the limit, declared by Content-Length", async () => {
    const res = await put(form([["image", new Blob([Buffer.alloc(LIMIT * 2)], { type: "image/png" }), "big.png"]]));
    assert.equal(res.status, 413);
    assert.match(res.json.detail, new RegExp(`limit of ${LIMIT} bytes`));
  });

  it("answers 413 for a file over its part's own limit (its schema's maxLength), within the body limit", async () => {
    const fits = await put(form([["image", new Blob([Buffer.alloc(1000)], { type: "image/png" }), "ok.png"]]));
    assert.equal(fits.status, 200, JSON.stringify(fits.json));
    const res = await put(form([["image", new Blob([Buffer.alloc(1001)], { type: "image/png" }), "big.png"]]));
    assert.equal(res.status, 413, JSON.stringify(res.json));
    assert.equal(res.json.detail, 'The file in part "image" is larger than its limit of 1000 bytes.');
  });

  it("answers 413 for a chunked body once it streams past the limit, without reading it all first", async () => {
    const boundary = "XyZ";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${url}/curators/c1/avatar`,
        {
          method: "PUT",
          headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Transfer-Encoding": "chunked" },
        },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.write(head);
      let sent = 0;
      const more = () => {
        // Keeps streaming (up to 64 KiB) until the server answers; it must answer long before the end.
        if (sent > 64 * 1024) return req.end(`\r\n--${boundary}--\r\n`);
        sent += 1024;
        req.write(Buffer.alloc(1024), () => setImmediate(more));
      };
      more();
    });
    assert.equal(answer.status, 413);
    assert.match(JSON.parse(answer.body).detail, /limit of 4096 bytes/);
  });

  const malformed: [string, string, Record<string, string>, RegExp][] = [
    ["no boundary", "abc", { "Content-Type": "multipart/form-data" }, /cannot be read/],
    [
      "a body that ends before its closing boundary",
      '--b\r\nContent-Disposition: form-data; name="caption"\r\n\r\nhal',
      { "Content-Type": "multipart/form-data; boundary=b" },
      /malformed: Unexpected end of (multipart data|form)/,
    ],
  ];
  for (const [name, body, headers, detail] of malformed) {
    it(`answers 400 for a multipart body with ${name}`, async () => {
      const res = await put(body, headers);
      assert.equal(res.status, 400, JSON.stringify(res.json));
      assert.match(res.json.detail, detail);
    });
  }
});

describe("mediaAllowed", () => {
  const cases: [string, string[], boolean][] = [
    ["image/png", ["image/png", "image/jpeg"], true],
    ["image/gif", ["image/png", "image/jpeg"], false],
    ["image/gif", ["image/*"], true],
    ["text/plain", ["image/*"], false],
    ["text/plain", ["*/*"], true],
  ];
  for (const [type, allowed, expected] of cases)
    it(`${type} in ${allowed.join(", ")} → ${expected}`, () => assert.equal(mediaAllowed(type, allowed), expected));
});

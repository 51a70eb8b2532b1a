// body.ts: media types, body presence and reading a body by its media type within a limit.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import type { Context } from "koa";
import { hasBody, isJson, mediaType, readBody } from "../../src/http/body.js";
import { HttpError } from "../../src/http/problem.js";

/** Just enough of a Koa context for body.ts: headers, the raw request stream and its charset. */
function fakeContext(headers: Record<string, string>, text = "", charset = ""): Context {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    get: (name: string) => lower[name.toLowerCase()] ?? "",
    req: Readable.from([Buffer.from(text)]),
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
  for (const [header, expected] of cases) it(`${JSON.stringify(header)} → ${JSON.stringify(expected)}`, () => assert.equal(mediaType(header), expected));
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
  for (const [headers, expected] of cases) it(`${JSON.stringify(headers)} → ${expected}`, () => assert.equal(hasBody(fakeContext(headers)), expected));
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

// The SSE parser of the REST event streams: messages split anywhere across chunks, \n or \r\n line ends, comments,
// multi-line data, ids, named events and retry.
import assert from "node:assert/strict";
import { sseParser, type SseMessage } from "../../src/rest/sse.js";

describe("sse: the event stream parser", () => {
  const parse = (chunks: string[]) => {
    const messages: SseMessage[] = [];
    const retries: number[] = [];
    const feed = sseParser(
      (m) => messages.push(m),
      (ms) => retries.push(ms),
    );
    for (const chunk of chunks) feed(chunk);
    return { messages, retries };
  };
  const text =
    ': stream\n\nid: 7\ndata: {"a":1}\n\nevent: error\ndata: {"code":"EVENTS_OVERFLOW"}\n\nretry: 250\n\ndata: one\ndata: two\n\n';
  const expected: SseMessage[] = [
    { id: "7", event: "message", data: '{"a":1}' },
    { event: "error", data: '{"code":"EVENTS_OVERFLOW"}' },
    { event: "message", data: "one\ntwo" },
  ];

  it("reads ids, named events, multi-line data and retry; skips comments", () => {
    assert.deepEqual(parse([text]), { messages: expected, retries: [250] });
  });

  it("reads the same whatever the chunks, and with \\r\\n line ends", () => {
    for (const size of [1, 2, 3, 7]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
      assert.deepEqual(parse(chunks).messages, expected, `chunks of ${size}`);
    }
    assert.deepEqual(parse([text.replace(/\n/g, "\r\n")]).messages, expected);
    const crlf = text.replace(/\n/g, "\r\n");
    assert.deepEqual(parse(crlf.match(/[\s\S]{1,3}/g)!).messages, expected, "\\r\\n split between chunks");
  });

  it("sends nothing for a message not ended by a blank line, nor for one without data", () => {
    assert.deepEqual(parse(["id: 1\n\n", "data: half"]).messages, []);
  });
});

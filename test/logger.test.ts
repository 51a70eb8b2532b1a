// The server's log lines (packages/twinspec/src/logger.ts): the request line formatted by hand is pino's byte for byte, request lines
// are batched but written within REQUEST_LINES_DELAY_MS, other lines at once and in order, nothing lost at exit.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import {
  createServerLogger,
  isoTime,
  logRequestLine,
  REQUEST_LINES_DELAY_MS,
  type RequestLine,
} from "../packages/twinspec/src/logger.js";
import { until } from "./support/wait.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "twinspec-logger-"));
let files = 0;
/** A server logger writing to a file of its own; `text()` reads what has been written so far. */
function serverLogger(level = "info") {
  const file = path.join(dir, `${files++}.log`);
  const { logger, flush } = createServerLogger(level, undefined, fs.openSync(file, "w"));
  return { logger, flush, text: () => fs.readFileSync(file, "utf8") };
}
const lines = (text: string) => text.split("\n").filter(Boolean);
const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"…"');

describe("server logger (packages/twinspec/src/logger.ts)", () => {
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes the time as pino.stdTimeFunctions.isoTime does (new Date().toISOString())", () => {
    const times = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      59_999,
      60_000,
      Date.now(),
      Date.UTC(2099, 11, 31, 23, 59, 59, 999),
    ];
    for (let t = 0; t < Date.UTC(2100, 0, 1); t += 777_777_777_7) times.push(t, t + 1, t + 999);
    for (const t of times) assert.equal(isoTime(t), `,"time":"${new Date(t).toISOString()}"`, String(t));
    assert.match(isoTime(), /^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
  });

  it("formats the request line byte for byte as pino did (same keys, order and escaping)", () => {
    const inputs: RequestLine[] = [
      { requestId: "3b241101-e2bb-4255-8caf-4136c566a962", method: "GET", url: "/customers/42", status: 200, ms: 0 },
      { requestId: "caller.id:1_2-3", method: "POST", url: '/a"b\\c?q="x"&y=\\', status: 422, ms: 12_345 },
      { requestId: "r", method: "DELETE", url: "/caf\u00e9?\u00fc=\u00ff\u007f", status: 500, ms: 3 },
      { requestId: "r", method: "GET", url: `/${"x".repeat(150)}"`, status: 404, ms: 1 },
      { requestId: "r", method: "GET", url: "/tab\there\u0001", status: 400, ms: 2 },
      // longer than a chunk holds (written on its own), and one that fills most of one (multi-byte characters)
      { requestId: "r", method: "GET", url: `/${"y".repeat(6_000)}`, status: 414, ms: 0 },
      { requestId: "r", method: "GET", url: `/${"\u00e9".repeat(2_500)}`, status: 404, ms: 0 },
    ];
    const server = serverLogger();
    const pinoOut: string[] = [];
    // The request line as pino wrote it before (createLogger's options, then and now).
    const reference = pino(
      { level: "info", base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
      { write: (s: string) => pinoOut.push(s) },
    );
    for (const line of inputs) {
      logRequestLine(server.logger, line);
      reference.info({ ...line }, "request");
    }
    server.flush();
    assert.deepEqual(
      lines(server.text()).map(withoutTime),
      pinoOut.map((s) => withoutTime(s.trimEnd())),
    );
  });

  it("respects the level: no request line when info is off", () => {
    const server = serverLogger("warn");
    logRequestLine(server.logger, { requestId: "r", method: "GET", url: "/", status: 200, ms: 0 });
    server.logger.info({ requestId: "r", method: "GET", url: "/", status: 200, ms: 0 }, "request");
    server.logger.warn("shown");
    server.flush();
    assert.deepEqual(
      lines(server.text()).map((l) => JSON.parse(l).msg),
      ["shown"],
    );
  });

  it("writes a request line at low traffic within REQUEST_LINES_DELAY_MS, without a flush", async () => {
    const server = serverLogger();
    const started = Date.now();
    logRequestLine(server.logger, { requestId: "r1", method: "GET", url: "/one", status: 200, ms: 0 });
    await until(() => server.text().includes('"url":"/one"'), "the request line", 5_000, 5);
    const ms = Date.now() - started;
    assert.ok(ms >= REQUEST_LINES_DELAY_MS - 5, `written after ${ms} ms: batched, not one write per line`);
    assert.ok(ms < REQUEST_LINES_DELAY_MS + 1_000, `written after ${ms} ms`);
    // Formatted when written, but it tells when it was logged.
    const time = Date.parse(JSON.parse(lines(server.text())[0]).time);
    assert.ok(time >= started - 1 && time < started + REQUEST_LINES_DELAY_MS / 2, `logged at ${time - started} ms`);
  });

  it("writes any other line at once, after the request lines gathered before it; flush() writes the rest", () => {
    const server = serverLogger();
    logRequestLine(server.logger, { requestId: "r1", method: "GET", url: "/one", status: 200, ms: 0 });
    server.logger.info({ requestId: "r2", method: "GET", url: "/two", status: 200, ms: 0 }, "request"); // pino's path
    assert.equal(server.text(), "", "request lines are gathered");
    server.logger.error({ requestId: "r3", stack: "at x\n".repeat(2_000) }, "failed"); // longer than a chunk
    assert.deepEqual(
      lines(server.text()).map((l) => JSON.parse(l).url ?? JSON.parse(l).msg),
      ["/one", "/two", "failed"],
    );
    for (let i = 0; i < 300; i++)
      logRequestLine(server.logger, { requestId: `r${i}`, method: "GET", url: `/n/${i}`, status: 200, ms: 0 });
    const written = lines(server.text()).length;
    assert.ok(written > 3 && written < 303, `in chunks: ${written - 3} of 300 written before the flush`);
    server.flush();
    assert.deepEqual(
      lines(server.text())
        .slice(3)
        .map((l) => JSON.parse(l).url),
      Array.from({ length: 300 }, (_, i) => `/n/${i}`),
    );
  });

  it("writes every logger's lines at exit through one listener, however many loggers there are", () => {
    serverLogger();
    const before = process.listenerCount("exit");
    for (let i = 0; i < 20; i++) serverLogger();
    assert.equal(process.listenerCount("exit"), before);
  });

  it("loses no request line when the process ends without a flush: uncaught exception, process.exit, an empty event loop", () => {
    const logger = pathToFileURL(path.resolve("packages/twinspec/src/logger.ts")).href;
    const ends = {
      "throw new Error('crash')": 1,
      "process.exit(3)": 3,
      "": 0,
      "Promise.reject(new Error('rejected'))": 1,
    };
    for (const [end, code] of Object.entries(ends)) {
      const script = `import { createServerLogger, logRequestLine } from ${JSON.stringify(logger)};
        const { logger } = createServerLogger();
        logRequestLine(logger, { requestId: "r", method: "GET", url: "/last", status: 200, ms: 0 });
        ${end}`;
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
        timeout: 30_000,
      });
      assert.equal(run.status, code, `${end}: ${run.stderr}`);
      assert.match(run.stdout, /"url":"\/last"/, `${end || "an empty event loop"}: ${run.stdout} ${run.stderr}`);
    }
  });

  it("a stdout that cannot be written ends the process (as async writes did), not the request being logged", () => {
    const logger = pathToFileURL(path.resolve("packages/twinspec/src/logger.ts")).href;
    const script = `import fs from "node:fs";
      import { createServerLogger } from ${JSON.stringify(logger)};
      const { logger } = createServerLogger("info", undefined, fs.openSync("/dev/null", "r"));
      logger.warn("not writable");
      console.error("still running");`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /still running[\s\S]*EBADF/);
  });
});

// The server's log lines (packages/twinspec/src/logger.ts): pino's JSON lines through its own buffered destination,
// written in order within LOG_FLUSH_MS at low traffic, nothing lost at exit.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createServerLogger, LOG_FLUSH_MS } from "../packages/twinspec/src/logger.js";
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
const request = { requestId: "3b241101-e2bb-4255-8caf-4136c566a962", method: "GET", url: '/a"b', status: 200, ms: 3 };

describe("server logger (packages/twinspec/src/logger.ts)", () => {
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes pino's JSON line: level, pino's time, the fields in order, no pid or hostname", () => {
    const server = serverLogger();
    server.logger.info({ ...request }, "request");
    server.flush();
    const [line] = lines(server.text());
    assert.match(line, /^\{"level":30,"time":\d{13},"requestId":/);
    const { time, ...rest } = JSON.parse(line);
    assert.ok(Math.abs(time - Date.now()) < 60_000, `time ${time}`);
    assert.deepEqual(rest, { level: 30, ...request, msg: "request" });
  });

  it("respects the level: no request line when info is off", () => {
    const server = serverLogger("warn");
    server.logger.info({ ...request }, "request");
    server.logger.warn("shown");
    server.flush();
    assert.deepEqual(
      lines(server.text()).map((l) => JSON.parse(l).msg),
      ["shown"],
    );
  });

  it(`writes a line at low traffic within LOG_FLUSH_MS (${LOG_FLUSH_MS} ms), without a flush`, async () => {
    const server = serverLogger();
    const started = Date.now();
    server.logger.info({ ...request, url: "/one" }, "request");
    await until(() => server.text().includes('"url":"/one"'), "the request line", 5_000, 5);
    const ms = Date.now() - started;
    assert.ok(ms < LOG_FLUSH_MS + 1_000, `written after ${ms} ms`);
  });

  it("gathers lines and writes them in chunks, in order; flush() writes the rest at once", () => {
    const server = serverLogger();
    server.logger.info({ ...request, url: "/one" }, "request");
    server.logger.info({ ...request, url: "/two" }, "request");
    assert.equal(server.text(), "", "gathered");
    server.logger.error({ requestId: "r3", stack: "at x\n".repeat(2_000) }, "failed"); // longer than a chunk
    assert.deepEqual(
      lines(server.text()).map((l) => JSON.parse(l).url ?? JSON.parse(l).msg),
      ["/one", "/two", "failed"],
      "a chunk's worth is written at once",
    );
    for (let i = 0; i < 300; i++) server.logger.info({ ...request, url: `/n/${i}` }, "request");
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

  it("loses no line when the process ends without a flush: uncaught exception, process.exit, an empty event loop", () => {
    const logger = pathToFileURL(path.resolve("packages/twinspec/src/logger.ts")).href;
    const ends = {
      "throw new Error('crash')": 1,
      "process.exit(3)": 3,
      "": 0,
      "Promise.reject(new Error('rejected'))": 1,
    };
    for (const [end, code] of Object.entries(ends)) {
      const script = `import { createServerLogger } from ${JSON.stringify(logger)};
        const { logger } = createServerLogger();
        logger.info({ requestId: "r", method: "GET", url: "/last", status: 200, ms: 0 }, "request");
        ${end}`;
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
        timeout: 30_000,
      });
      assert.equal(run.status, code, `${end}: ${run.stderr}`);
      assert.match(run.stdout, /"url":"\/last"/, `${end || "an empty event loop"}: ${run.stdout} ${run.stderr}`);
    }
  });

  it("a stdout that cannot be written ends the process, not the request being logged", () => {
    const logger = pathToFileURL(path.resolve("packages/twinspec/src/logger.ts")).href;
    const script = `import fs from "node:fs";
      import { createServerLogger } from ${JSON.stringify(logger)};
      const { logger } = createServerLogger("info", undefined, fs.openSync("/dev/null", "r"));
      for (let i = 0; i < 200; i++) logger.warn("not writable: more than a chunk of lines");
      console.error("still running");`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /still running[\s\S]*EBADF/);
  });
});

// The server process `twinspec dev` runs (src/dev.ts), driven by the loop over IPC. Started ahead of time, it loads
// the runtime (Koa, graphql, kysely, the SQLite driver: most of a start), then registers dev-hooks.mjs, which
// compiles the application's TypeScript as it loads.
//   { main }     imports the application's entry point (src/main.ts, which calls twinspec's `serve`). Its listening
//                waits for { listen }: the loop sends it once the server before this one (another process) let go of
//                the port, so this one loads while that one stops.
//   { reload }   stops the application in this process as a SIGTERM would (serve drains, closes the app and the
//                database, and would exit: here it does not), then imports the entry point again as a new generation
//                of the application's modules (the hooks give every module of the project a `twinspec-dev=<n>` query,
//                so each is evaluated afresh; node_modules are loaded once), which serves on the same port.
// After each start it sends { listening } (or { failed: message }), with the `id` of the message that asked for it.
// When the loop goes away, so does this process.
import { createRequire, register } from "node:module";
import { Server } from "node:net";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ready = import("twinspec")
  .catch(() => {}) // not installed: the entry point's own import says so
  .then(() => register(new URL("./dev-hooks.mjs", import.meta.url)));

let portFree;
const free = new Promise((resolve) => (portFree = resolve));
const listen = Server.prototype.listen;
/** Set by each start: the next server that listens (the application's, or its metrics port before it) reports it. */
let report;
Server.prototype.listen = function (...args) {
  const tell = report;
  report = undefined;
  if (tell) this.once("listening", () => tell({ listening: true }));
  void free.then(() => listen.apply(this, args));
  return this;
};

const send = (message) => {
  if (process.connected) process.send(message);
};

let generation = 0;
/** Imports the entry point as a new generation; reports when it listens, or why it could not start (with `id`). */
async function start(main, id) {
  generation++;
  report = (answer) => send({ ...answer, id });
  try {
    await ready;
    await import(`${main}?twinspec-dev=${generation}`);
  } catch (error) {
    report = undefined;
    send({ failed: String(error?.message ?? error).split("\n")[0], id });
  }
}

// `serve` ends its shutdown with process.exit: during a reload that exit is the application's stop, not the
// process's. Any other exit (the loop's SIGTERM, an uncaught fault) stays real.
const exit = process.exit.bind(process);
let stopped;
process.exit = (code) => {
  if (!stopped) return exit(code);
  const done = stopped;
  stopped = undefined;
  done(code);
  return undefined;
};
let synthetic = false;
const SIGNALS = ["SIGTERM", "SIGINT", "uncaughtException"];
// Before any application (a standby), a signal ends the process; then, serve's own handlers do.
const onSignal = () => {
  if (!synthetic && generation === 0) exit(0);
};
const own = { SIGTERM: onSignal, SIGINT: onSignal };
for (const [signal, listener] of Object.entries(own)) process.prependListener(signal, listener);

/**
 * Stops the running application as serve's SIGTERM handler does, without ending the process: the timers that handler
 * sets (its deadline, which would exit) are cleared once it is done.
 */
async function stopApplication() {
  if (process.listenerCount("SIGTERM") === 1) return; // the last start failed: nothing runs
  const done = new Promise((resolve) => (stopped = resolve));
  const timers = [];
  const setTimer = globalThis.setTimeout;
  globalThis.setTimeout = (...args) => {
    const timer = setTimer(...args);
    timers.push(timer);
    return timer;
  };
  synthetic = true;
  try {
    process.emit("SIGTERM", "SIGTERM");
  } finally {
    synthetic = false;
    globalThis.setTimeout = setTimer;
  }
  await done;
  for (const timer of timers) clearTimeout(timer);
  // The stopped application's handlers go with it; the next generation's serve adds its own.
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal)) if (listener !== own[signal]) process.off(signal, listener);
}

/** CommonJS modules of the project (generated/validators.cjs): Node keeps them by file; a reload reads them again. */
function forgetCommonJs(root) {
  const cache = createRequire(import.meta.url).cache;
  for (const file of Object.keys(cache))
    if (file.startsWith(root) && !file.includes(`${sep}node_modules${sep}`)) delete cache[file];
}

process.on("message", async (message) => {
  if (message.listen) portFree();
  if (message.main) await start(message.main, message.id);
  if (message.reload) {
    await stopApplication();
    forgetCommonJs(dirname(dirname(fileURLToPath(message.reload))) + sep);
    await start(message.reload, message.id);
  }
});
// The loop is gone (killed, crashed): the application stops as on a SIGTERM, which also ends a standby.
process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));

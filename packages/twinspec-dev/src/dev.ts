// `npm run dev` (`twinspec dev`): generate, serve the application (its src/main.ts, TypeScript compiled as it
// loads) in a child process, and watch. A save of openapi.yaml, schema.graphql or codegen.yml regenerates in this process, whose generator is
// loaded already (only files that differ are written; nothing when the stamp says nothing changed), then restarts
// the server; a spec that does not generate prints its diagnostics and leaves the running server as it is. A save
// under src/ restarts the server. The database is the server's own (DATABASE_URL, by default a file under data/),
// which a restart keeps.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync, watch, type FSWatcher } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateProject } from "./codegen/project.js";
import { stampMatches } from "./codegen/stamp.js";
import { OUT } from "./codegen/generate-app.js";
import { seconds } from "./codegen/timings.js";
import { packageRoot } from "./codegen/package-root.js";
import { cacheDir } from "./codegen/part-cache.js";

/**
 * A server process in waiting: the runtime (and through it Koa, graphql, kysely, the SQLite driver) imported, then the
 * application's entry point when the loop sends it (`main`). Its listening waits for the loop's `listen`, sent once
 * the server before it has let go of the port: the next server loads while the last one stops. Once it listens it
 * tells the loop (`listening`), which then starts the next standby. Not found (an application without twinspec
 * installed): the entry point alone tells why.
 */
const standbyScript = (hooks: string) => `import { register } from "node:module";
import { Server } from "node:net";
// The hooks (which compile the application's TypeScript) once the runtime is loaded: every module loaded through
// them is a round trip to their thread, and the runtime's hundreds of modules need none.
const ready = import("twinspec").catch(() => {}).then(() => register(${JSON.stringify(hooks)}));
let free;
const portFree = new Promise((resolve) => (free = resolve));
const listen = Server.prototype.listen;
let first = true;
Server.prototype.listen = function (...args) {
  if (first) {
    first = false;
    this.once("listening", () => { process.send?.({ listening: true }); process.disconnect?.(); });
  }
  void portFree.then(() => listen.apply(this, args));
  return this;
};
process.on("message", (message) => {
  if (message.main) void ready.then(() => import(message.main));
  if (message.listen) free();
});`;

/** dev-hooks.mjs: beside the sources in a checkout, else in dist/. */
const hooksUrl = () =>
  pathToFileURL(
    [join(packageRoot(), "src/dev-hooks.mjs"), join(packageRoot(), "dist/dev-hooks.mjs")].find((f) => existsSync(f))!,
  ).href;

const SPECS = new Set(["openapi.yaml", "schema.graphql", "codegen.yml"]);
/** Saves come in bursts (an editor writes, renames, touches): one run for each burst. */
const SETTLE_MS = 40;
/** How long a stopping server may take to drain before it is killed: a dev server's requests are a person's. */
const STOP_MS = 1000;
/** Events of src/ that arrive this long after a generation are the stubs it wrote, not a person's save. */
const OWN_WRITES_MS = 100;

export interface DevOptions {
  /** the project's folder (default: the working directory) */
  cwd?: string;
  log?: (line: string) => void;
}

/** A running dev loop; `close` stops the watchers and the server. */
export interface DevLoop {
  close(): Promise<void>;
}

/** Starts the dev loop in the project (the working directory). */
export async function dev({
  log = (line) => console.error(`[twinspec dev] ${line}`),
}: DevOptions = {}): Promise<DevLoop> {
  const main = resolve("src/main.ts");
  let server: ChildProcess | undefined;
  /** the server loading the application while the one before it stops */
  let starting: ChildProcess | undefined;
  // The next server is started ahead of time and loads the runtime and its libraries (most of a start) while it
  // waits; after a save it only has to import the application: src/main.ts, its modules and generated/ (compiled by
  // dev-hooks.mjs as they load).
  const conditions = process.execArgv.filter((a) => a.startsWith("--conditions"));
  const script = standbyScript(hooksUrl());
  const standby = () => {
    const child = spawn(process.execPath, [...conditions, "--input-type=module", "--eval", script], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("error", () => {}); // a standby that fails to start is replaced at the next start
    return child;
  };
  let next: ChildProcess | undefined = standby();
  let closed = false;
  pruneCache();
  let generated = await generateProject();
  if (!generated) log("fix the specs; the server starts once they generate");

  /** The next server loads the application now, and listens once the running one (if any) has stopped. */
  const restart = async () => {
    const child = next?.connected ? next : standby();
    // The next one once this one listens: two starting at once on a small machine slow the one awaited.
    next = undefined;
    child.once("message", (message: { listening?: boolean }) => {
      if (message.listening && !closed) next ??= standby();
    });
    child.once("exit", (code, signal) => {
      if ((server === child || starting === child) && signal === null)
        log(`the server exited (${code}); it starts again on the next save`);
      if (server === child) server = undefined;
    });
    starting = child;
    child.send({ main: pathToFileURL(main).href });
    await stop();
    starting = undefined;
    server = child;
    if (child.connected) child.send({ listen: true });
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_MS);
    await exited;
    clearTimeout(timer);
  };
  if (generated) await restart();

  // One run at a time; what changed meanwhile is handled by the next.
  let pending: { specs: boolean } | undefined;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let ownWrites = 0;
  const specsSavedMeanwhile = () => pending?.specs === true;
  const changed = (specs: boolean) => {
    pending = { specs: specs || (pending?.specs ?? false) };
    clearTimeout(timer);
    timer = setTimeout(() => void run(), SETTLE_MS);
  };
  const run = async () => {
    if (running || !pending) return;
    running = true;
    const { specs } = pending;
    pending = undefined;
    try {
      const started = performance.now();
      if (specs || !generated) {
        if (stampMatches(OUT)) {
          if (!generated) generated = true;
          else return;
        } else {
          // The comparison with git HEAD is left to `npm run generate`: it changes nothing the server runs.
          generated = await generateProject({ head: false });
          if (!generated) {
            log(
              server
                ? "the specs do not generate (above); the server keeps running as it was"
                : "fix the specs; the server starts once they generate",
            );
            return;
          }
        }
        // The stubs it just wrote under src/ are no reason to run again.
        if (!specsSavedMeanwhile()) pending = undefined;
        ownWrites = performance.now() + OWN_WRITES_MS;
      }
      await restart();
      log(`restarted the server ${seconds(performance.now() - started)} after the save`);
    } finally {
      running = false;
      if (pending) void run();
    }
  };

  // The server does not outlive the loop: stopped with it (Ctrl-C, a kill), and killed if this process exits otherwise.
  const onSignal = (signal: NodeJS.Signals) => void close().then(() => process.kill(process.pid, signal));
  const onExit = () => {
    server?.kill("SIGKILL");
    starting?.kill("SIGKILL");
    next?.kill("SIGKILL");
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, onSignal);
  process.once("exit", onExit);

  const watchers: FSWatcher[] = [watch(".", (_event, name) => name && SPECS.has(String(name)) && changed(true))];
  if (existsSync("src"))
    watchers.push(
      watch(
        "src",
        { recursive: true },
        (_event, name) => name && !running && performance.now() > ownWrites && changed(false),
      ),
    );

  async function close() {
    clearTimeout(timer);
    for (const w of watchers) w.close();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
    process.off("exit", onExit);
    closed = true;
    next?.kill("SIGKILL");
    starting?.kill("SIGKILL");
    await stop();
  }
  return { close };
}

/** Compiled modules (dev-hooks.mjs) older than a day: the cache keeps what the last day's restarts used. */
function pruneCache() {
  const dir = cacheDir("twinspec-dev");
  if (!dir || !existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { force: true });
    } catch {
      // removed meanwhile by another loop
    }
  }
}

// Run as a script (`node …/twinspec-dev/dist/dev.js`, the dev script of applications made before `twinspec dev`).
if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) await dev();

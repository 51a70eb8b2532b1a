// `npm run dev` (`twinspec dev`): generate, serve the application (its src/main.ts, TypeScript compiled as it loads)
// in a child process (dev-server.mjs), and watch. A save of openapi.yaml, schema.graphql, codegen.yml or
// workflows.arazzo.yaml (checked against the specs) regenerates in this process, whose generator is loaded already
// (only files that differ are written; nothing when the stamp says nothing changed), then reloads the server: the same
// process stops the application and imports it again, its libraries loaded once. A spec that does not generate prints
// its diagnostics and leaves the running server as it is. A save under src/ reloads the server too. Every RELOADS
// reloads, or when a reload does not answer, the server is a fresh process instead (one started ahead of time). The
// database is the server's own (DATABASE_URL, by default a file under data/), which a reload or a restart keeps.
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

/** A file of this package: beside the sources in a checkout, else in dist/. */
const ownFile = (name: string) =>
  [join(packageRoot(), "src", name), join(packageRoot(), "dist", name)].find((f) => existsSync(f))!;

const SPECS = new Set(["openapi.yaml", "schema.graphql", "codegen.yml", "workflows.arazzo.yaml"]);
/** Saves come in bursts (an editor writes, renames, touches): one run for each burst. */
const SETTLE_MS = 40;
/** How long a stopping server may take to drain before it is killed: a dev server's requests are a person's. */
const STOP_MS = 1000;
/** How long a reload may take before its process is replaced by a fresh one. */
const RELOAD_MS = 10_000;
/**
 * Reloads one server process takes before a fresh one replaces it: each leaves the application's modules of its
 * generation in memory (ES modules cannot be unloaded).
 */
const RELOADS = 25;
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
  /** the reloads `server` has done */
  let reloads = 0;
  /** the server loading the application while the one before it stops */
  let starting: ChildProcess | undefined;
  // A server process is started ahead of time and loads the runtime and its libraries (most of a start) while it
  // waits; when the running one cannot reload, it only has to import the application: src/main.ts, its modules and
  // generated/ (compiled by dev-hooks.mjs as they load).
  const conditions = process.execArgv.filter((a) => a.startsWith("--conditions"));
  const serverScript = ownFile("dev-server.mjs");
  const standby = () => {
    const child = spawn(process.execPath, [...conditions, serverScript], {
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

  /** Asks `child` for a start; its answer: listening, or why it failed; undefined if it exits or takes over `ms`. */
  let asked = 0;
  const ask = (child: ChildProcess, message: { main?: string; reload?: string }, ms?: number) =>
    new Promise<{ listening?: boolean; failed?: string } | undefined>((done) => {
      const id = ++asked;
      const timer = ms === undefined ? undefined : setTimeout(() => finish(undefined), ms);
      const onMessage = (answer: { listening?: boolean; failed?: string; id?: number }) => {
        if (answer.id === id) finish(answer);
      };
      const onExit = () => finish(undefined);
      const finish = (answer: { listening?: boolean; failed?: string } | undefined) => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
        done(answer);
      };
      child.on("message", onMessage);
      child.once("exit", onExit);
      child.send({ ...message, id });
    });
  const failed = (answer: { failed?: string } | undefined) => {
    if (answer?.failed) log(`the server did not start: ${answer.failed}; it starts again on the next save`);
  };

  /** The running server reloads the application in its own process; false when it cannot (then restart). */
  const reload = async () => {
    const child = server;
    if (!child?.connected || reloads >= RELOADS) return false;
    reloads++;
    const answer = await ask(child, { reload: pathToFileURL(main).href }, RELOAD_MS);
    if (answer === undefined) return false;
    failed(answer);
    return true;
  };
  /** A fresh server process loads the application now, and listens once the running one (if any) has stopped. */
  const restart = async () => {
    const child = next?.connected ? next : standby();
    next = undefined;
    child.once("exit", (code, signal) => {
      if ((server === child || starting === child) && signal === null)
        log(`the server exited (${code}); it starts again on the next save`);
      if (server === child) server = undefined;
    });
    starting = child;
    const answer = ask(child, { main: pathToFileURL(main).href });
    await stop();
    starting = undefined;
    server = child;
    reloads = 0;
    if (child.connected) child.send({ listen: true });
    // The next standby once this one listens: two starting at once on a small machine slow the one awaited.
    void answer.then((a) => {
      failed(a);
      if (!closed) next ??= standby();
    });
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
      const saved = performance.now();
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
      if (await reload()) log(`reloaded the server ${seconds(performance.now() - saved)} after the save`);
      else {
        await restart();
        log(`restarted the server ${seconds(performance.now() - saved)} after the save`);
      }
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

// An application's server as its own process, as `npm start` runs it, for the tests a process needs: restarts,
// shutdown, several instances, the environment read at start. Resolves once the server logs the URL it listens on.
import { spawn, type ChildProcess } from "node:child_process";
import { TEST_SECRET } from "./tokens.js";

/** A server running as a process of its own, listening. */
export interface ServerProcess {
  /** the URL it logged it listens on ("http://127.0.0.1:PORT") */
  url: string;
  /** the process (send it SIGTERM to stop it) */
  child: ChildProcess;
  /** everything it wrote to stdout and stderr so far */
  output: () => string;
  /** resolves with its exit code (null when a signal ended it) */
  exited: Promise<number | null>;
}

/** How `spawnServer` starts a server; every field is optional. */
export interface SpawnOptions {
  /** added to the test defaults (127.0.0.1 on a free port, TEST_SECRET, info logs, rate limits × 1000) */
  env?: Record<string, string>;
  /** its working directory (default this process's) */
  cwd?: string;
  /** how long it may take to listen before it is killed (default 15 s) */
  timeoutMs?: number;
  /** its own process group (a command such as npm, whose children must go with it) */
  detached?: boolean;
}

/**
 * `entry` run by tsx, as `npm start` runs src/main.ts: with the export conditions this test process was started with
 * (`--conditions`), so the child resolves packages as the tests do.
 *
 * @param env - environment variables added to the test defaults (`SpawnOptions.env`)
 * @param entry - the file run (default "src/main.ts")
 * @param options - working directory, start timeout, process group (`SpawnOptions` without `env`); default none
 */
export function startProcess(
  env: Record<string, string>,
  entry = "src/main.ts",
  options: Omit<SpawnOptions, "env"> = {},
): Promise<ServerProcess> {
  const conditions = process.execArgv.filter((arg) => arg.startsWith("--conditions=") || arg.startsWith("-C="));
  return spawnServer(process.execPath, [...conditions, "--import", "tsx", entry], { ...options, env });
}

/**
 * Any command that starts a server and logs its `"url"` (npm start, node on a production install): resolves once it
 * does; rejects when it exits first, or kills it and rejects when it does not within the timeout. Stop it yourself
 * (`child.kill()`).
 *
 * @param command - the executable
 * @param args - its arguments
 * @param options - environment, working directory, start timeout, process group (`SpawnOptions`); default none
 */
export async function spawnServer(
  command: string,
  args: string[],
  { env = {}, cwd, timeoutMs = 15_000, detached = false }: SpawnOptions = {},
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      AUTH_SECRET: TEST_SECRET,
      RATE_LIMIT_FACTOR: "1000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached,
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a server behind that no test will stop (with its group: npm's children too).
      if (detached) process.kill(-child.pid!, "SIGKILL");
      else child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", () => reject(new Error(`server exited before listening:\n${output}`)));
  });
  return { url, child, output: () => output, exited };
}

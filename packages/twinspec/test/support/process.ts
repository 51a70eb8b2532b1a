// Runs the fixture's src/main.ts (or another entry) as its own process, as `npm start` runs an application, and
// waits until it listens. Its working directory is the fixture's folder (TWINSPEC_ROOT too: test/support/root.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { TEST_SECRET } from "./auth.js";
import { FIXTURE } from "./fixture.js";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `entry` runs as `tsx <entry>` does: `npm start` runs src/main.ts, `npm run mock` src/mock.ts. Rate limits are the
 * specs' × 1000 unless `env` sets RATE_LIMIT_FACTOR (see TEST_RATE_LIMITS in server.ts).
 */
export function startProcess(env: Record<string, string>, entry = "src/main.ts"): Promise<ServerProcess> {
  return spawnServer(process.execPath, ["--import", "tsx", "--conditions=twinspec-source", entry], { env, cwd: FIXTURE });
}

/**
 * Any command that starts a server and logs its `"url"` (npm start, node on a production install), with the test
 * defaults in its environment; killed if it does not listen within `timeoutMs`. `detached`: its own process group.
 */
async function spawnServer(
  command: string,
  args: string[],
  { env = {}, cwd = FIXTURE, timeoutMs = 15_000, detached = false }: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; detached?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", AUTH_SECRET: TEST_SECRET, RATE_LIMIT_FACTOR: "1000", ...env },
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

// Shared by the benchmarks: start a server process, load it with autocannon on 127.0.0.1, read its peak RSS.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs `node --import tsx <script>` and waits for a log line carrying "url". */
export async function startServer(script: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 20_000);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(buffered);
      if (m) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume(); // keep draining the logs so the server never blocks on a full pipe
        resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** Peak resident set size of a process, in MiB (Linux VmHWM). */
export function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(opts: {
  url: string;
  seconds: number;
  connections?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<Load> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.seconds,
    method: (opts.method ?? "GET") as "GET",
    headers: opts.headers,
    body: opts.body,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

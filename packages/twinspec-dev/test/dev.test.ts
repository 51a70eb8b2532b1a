// `twinspec dev` (src/dev.ts) on a copy of the fixture application, a real server on an ephemeral port: a save of
// openapi.yaml adding an operation is served (501 from its fresh stub) without a restart by hand, what was written
// before a save is still there after it, a handler edited under src/ is served as edited, and a spec that does not
// generate prints where it is wrong and leaves the server running.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signToken } from "twinspec/internals";
import { FIXTURE } from "../../twinspec/test/support/fixture.js";

const TWINSPEC = fileURLToPath(new URL("../bin/twinspec.js", import.meta.url));
// Inside the repository (test/.tmp/ is ignored), so the copy finds node_modules as the fixture does.
const TMP = fileURLToPath(new URL(".tmp", import.meta.url));
const SECRET = "a-secret-for-the-dev-loop-test-only-32+";

const probe = (n: number) => `
  /dev-probe/p${n}:
    get:
      operationId: devProbe${n}
      tags: [notes]
      summary: A probe the dev loop test adds
      x-unpaired: a probe of the dev loop test
      security: []
      responses:
        "200":
          description: Never answered (the stub answers 501)
          content:
            application/json:
              schema: { type: object }
        "406": { $ref: "#/components/responses/NotAcceptable" }
        "429": { $ref: "#/components/responses/TooManyRequests" }
        "500": { $ref: "#/components/responses/InternalError" }
        "503": { $ref: "#/components/responses/ServiceUnavailable" }
        "408": { $ref: "#/components/responses/RequestTimeout" }
        "414": { $ref: "#/components/responses/UriTooLong" }
        "431": { $ref: "#/components/responses/HeadersTooLarge" }
`;

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });

describe("twinspec dev", function () {
  this.timeout(600_000);
  let app: string;
  let port: number;
  let loop: ChildProcess;
  let output = "";

  const status = async (path: string, init?: RequestInit) => {
    try {
      return (await fetch(`http://127.0.0.1:${port}${path}`, { ...init, signal: AbortSignal.timeout(5000) })).status;
    } catch {
      return undefined;
    }
  };
  /** Polls (a condition, not a timing: the test's timeout bounds it) until `path` answers `want`. */
  const until = async (path: string, want: number) => {
    while ((await status(path)) !== want) await new Promise((r) => setTimeout(r, 100));
  };
  const untilOutput = async (pattern: RegExp) => {
    while (!pattern.test(output)) await new Promise((r) => setTimeout(r, 100));
  };
  const addProbe = (n: number) => {
    const spec = join(app, "openapi.yaml");
    writeFileSync(spec, readFileSync(spec, "utf8").replace(/^paths:\n/m, `paths:${probe(n)}`));
  };

  before(async () => {
    mkdirSync(TMP, { recursive: true });
    app = mkdtempSync(join(TMP, "dev-"));
    for (const entry of ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src", "generated", "client"])
      cpSync(join(FIXTURE, entry), join(app, entry), { recursive: true });
    port = await freePort();
    loop = spawn(process.execPath, [TWINSPEC, "dev"], {
      cwd: app,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: `sqlite:${join(app, "dev.db")}`,
        AUTH_SECRET: SECRET,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    loop.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    loop.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await until("/notes", 401);
  });
  after(async () => {
    if (loop.exitCode === null) {
      const exited = new Promise((r) => loop.once("exit", r));
      loop.kill("SIGTERM");
      await exited;
    }
    rmSync(app, { recursive: true, force: true });
  });

  it("serves an operation added to openapi.yaml: its stub answers 501", async () => {
    await until("/dev-probe/p1", 404);
    addProbe(1);
    await until("/dev-probe/p1", 501);
    assert.match(
      readFileSync(join(app, "src/rest/notes.ts"), "utf8"),
      /devProbe1\(/,
      "the stub was added to the tag's module",
    );
    assert.match(output, /(reloaded|restarted) the server/);
    assert.match(readFileSync(join(app, "generated/rest.ts"), "utf8"), /devProbe1/);
  });

  it("keeps the database across a reload: a note written before a save is read after it", async () => {
    const token = await signToken(SECRET, {
      sub: "dev-loop-test",
      scope: "notes:read notes:write admin",
      ttlSeconds: 600,
    });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await fetch(`http://127.0.0.1:${port}/notes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "Kept", body: "across a reload" }),
    });
    assert.equal(created.status, 201, await created.text());
    const location = created.headers.get("location")!;
    addProbe(3);
    await until("/dev-probe/p3", 501);
    const read = await fetch(`http://127.0.0.1:${port}${location}`, { headers });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { title: string }).title, "Kept");
  });

  it("serves a handler edited under src/ as it now reads", async () => {
    const handlers = join(app, "src/rest/notes.ts");
    const text = readFileSync(handlers, "utf8");
    // devProbe3's stub (added by the test before) answers the spec's 200 instead of throwing.
    const edited = text.replace(
      /(devProbe3\([^)]*\)[^{]*\{)\s*throw new NotImplementedError\([^)]*\);/,
      "$1\n    return { status: 200, body: { edited: true } };",
    );
    assert.notEqual(edited, text, "the stub of devProbe3 is in src/rest/notes.ts");
    writeFileSync(handlers, edited);
    await until("/dev-probe/p3", 200);
  });

  it("keeps the running server on a spec that does not generate, printing where it is wrong, and picks up the fix", async () => {
    const spec = join(app, "openapi.yaml");
    const good = readFileSync(spec, "utf8");
    const before = output.length;
    // The probe's operation without the statuses every operation must declare: the spec checks refuse it.
    writeFileSync(spec, good.replace(/^paths:\n/m, `paths:${probe(2).replace(/\n {8}"406"[\s\S]*$/, "\n")}`));
    await untilOutput(/the server keeps running/);
    const said = output.slice(before);
    assert.match(said, /openapi\.yaml#\/paths\/~1dev-probe~1p2\/get: devProbe2 must declare 406/);
    assert.equal(await status("/dev-probe/p1"), 501, "the server from before still answers");
    assert.equal(await status("/dev-probe/p2"), 404);

    writeFileSync(spec, good);
    addProbe(2);
    await until("/dev-probe/p2", 501);
    assert.equal(await status("/dev-probe/p1"), 501);
  });
});

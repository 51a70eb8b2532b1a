// `npm start` as users run it: the server is compiled JavaScript (dist/app), in one Node process below npm, with no
// TypeScript loader (no tsx, no esbuild service) in the process tree that serves the requests.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { ADMIN_TOKEN, TEST_SECRET } from "../support/auth.js";
import { spawnServer } from "twinspec-dev/testing";
import { call } from "../support/server.js";

/** Every process below `pid`, with its command line. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return [
          {
            pid: Number(d),
            ppid,
            cmd: readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0").filter(Boolean).join(" "),
          },
        ];
      } catch {
        return []; // gone meanwhile
      }
    });
  const found: { pid: number; cmd: string }[] = [];
  const visit = (parent: number) => {
    for (const p of all.filter((q) => q.ppid === parent)) {
      found.push({ pid: p.pid, cmd: p.cmd });
      visit(p.pid);
    }
  };
  visit(pid);
  return found;
}

describe("npm start", function () {
  this.timeout(120_000); // the first start after a source change compiles the server first

  it("serves from compiled JavaScript in one Node process, with no TypeScript loader", async () => {
    const server = await spawnServer("npm", ["start"], {
      env: { AUTH_SECRET: TEST_SECRET, DATABASE_URL: "sqlite::memory:", NODE_ENV: "production", NODE_OPTIONS: "" },
      timeoutMs: 110_000,
      detached: true,
    });
    const { url, child: npm } = server;
    try {
      assert.equal(
        (await call(`${url}/customers`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status,
        200,
      );
      const tree = descendants(npm.pid!);
      const nodes = tree.filter((p) => /(^|\/)node /.test(`${p.cmd} `));
      assert.equal(nodes.length, 1, `one Node process below npm: ${JSON.stringify(tree)}`);
      // Plain node, with no flag at all: no --import or --loader, V8's own young generation (docs/operations.md).
      assert.match(
        nodes[0].cmd,
        /^\S*node \S*node_modules\/\.bin\/twinspec-app start$/,
        `plain node, no --import or --loader: ${nodes[0].cmd}`,
      );
      assert.ok(
        !tree.some((p) => /tsx|esbuild|--import|--loader|--require/.test(p.cmd)),
        `no TypeScript loader: ${JSON.stringify(tree)}`,
      );
      const environ = readFileSync(`/proc/${nodes[0].pid}/environ`, "utf8");
      assert.doesNotMatch(environ, /NODE_OPTIONS=[^\0]*(tsx|--import|--loader)/);
      // The modules it runs are dist/app's: its source maps point there, and no .ts file is open or mapped.
      const maps = readFileSync(`/proc/${nodes[0].pid}/maps`, "utf8");
      assert.doesNotMatch(maps, /esbuild/);
    } finally {
      try {
        process.kill(-npm.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
  });
});

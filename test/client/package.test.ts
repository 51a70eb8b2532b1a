// The client package as a caller gets it: `npm pack` in client/ (its prepack builds dist/ and bundles the
// twinspec-client runtime; in a staged copy, test/support/staging.ts, so that nothing beside it sees that happen),
// installed in an empty project outside this one with TypeScript and nothing else, type-checked under strict, then
// run against the real server: a burst that meets 429, a create whose answer a proxy loses, every page, a checkout's
// job.
import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_TOKEN } from "../support/auth.js";
import { proxy } from "../support/http-proxy.js";
import { stageCheckout } from "../support/staging.js";
import { perSecond, startServer, type TestServer } from "../support/server.js";

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const CHECK = `import { createRestClient, createGraphqlClient, createRestQueries, CustomerDocument, type ErrorCode } from "twinspec-commerce-client";

const api = createRestClient({ baseUrl: "http://127.0.0.1:3000", token: () => "token" });
export async function read(customerId: string): Promise<string> {
  const got = await api.getCustomer({ path: { customerId } });
  if (got.status === 200) return got.body.email + (got.headers.ETag ?? "");
  if (got.status === 404 || got.status === 410) return got.body.title;
  // @ts-expect-error the SDK knows getCustomer declares no 201
  if (got.status === 201) return "";
  return String(got.status);
}
const gql = createGraphqlClient({ url: "http://127.0.0.1:3000/graphql" });
export const customer = (customerId: string) => gql.data(CustomerDocument, { customerId }).then((d) => d.customer?.email);
export const options = createRestQueries(api).queryOptions("getCustomer", { path: { customerId: "c" } });
// @ts-expect-error not a code the server answers
export const code: ErrorCode = "TEAPOT";
`;

const RUN = `import { createRestClient } from "twinspec-commerce-client";
const [baseUrl, proxied, token] = process.argv.slice(2);
const api = createRestClient({ baseUrl, token });
const person = (n, tag) => ({ firstName: "P" + n, lastName: tag, email: tag.toLowerCase() + "-" + n + "@example.com" });
const burst = await Promise.all(Array.from({ length: 12 }, (_, n) => api.createCustomer({ body: person(n, "Packed") })));
const once = await createRestClient({ baseUrl: proxied, token }).createCustomer({ body: person(0, "PackedOnce") });
const seen = [];
for await (const c of api.paginate("listCustomers", { query: { limit: 4 } })) seen.push(c);
const cart = await api.createCart({ path: { customerId: once.body.customerId }, body: { items: [{ sku: "BOOK-1", quantity: 1, unitPrice: 3 }] } });
const accepted = await api.checkoutCart({ path: { cartId: cart.body.cartId } });
const job = await api.waitFor(accepted);
console.log(JSON.stringify({ burst: burst.map((o) => o.status), once: once.status, onceId: once.body.customerId, seen: seen.map((c) => ({ id: c.customerId, lastName: c.lastName })), job: job.status }));
`;

describe("the client package, packed and installed in an empty project", function () {
  this.timeout(240_000);
  let dir: string;
  let tarball: string;
  let s: TestServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "twinspec-client-"));
    const stage = stageCheckout(join(dir, "checkout"), ["client", "packages/twinspec-client"]);
    const packed = npm(["pack", "--pack-destination", dir, "--json"], join(stage, "client"));
    tarball = join(dir, JSON.parse(packed.slice(packed.indexOf("[")))[0].filename);
    const project = join(dir, "caller");
    execFileSync("mkdir", ["-p", project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "caller", private: true, type: "module" }));
    npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, "typescript@5.9.3"], project);
    s = await startServer({ rateLimits: perSecond(5) });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("bundles the runtime and brings none of the server's dependencies", () => {
    const modules = join(dir, "caller/node_modules");
    assert.ok(
      existsSync(join(modules, "twinspec-commerce-client/node_modules/twinspec-client/dist/index.js")),
      "twinspec-client is bundled",
    );
    for (const server of ["koa", "kysely", "better-sqlite3", "pg", "twinspec", "@koa/router"])
      assert.equal(existsSync(join(modules, server)), false, `${server} installed`);
    assert.ok(statSync(tarball).size < 200_000, `${statSync(tarball).size} bytes packed`);
    assert.ok(readdirSync(join(modules, "twinspec-commerce-client/dist")).includes("index.d.ts"));
  });

  it("type-checks a caller's file under strict: typed outcomes, headers, documents and error codes", () => {
    const project = join(dir, "caller");
    writeFileSync(join(project, "check.ts"), CHECK);
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          types: [],
        },
        files: ["check.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", project], {
      encoding: "utf8",
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it("against the server: a burst meets 429 and all succeed, a lost answer creates once, every page once, the job SUCCEEDED", async () => {
    const p = await proxy(s.url, (seen, i) => (seen.method === "POST" && i === 0 ? "503 after forwarding" : "forward"));
    try {
      writeFileSync(join(dir, "caller/run.mjs"), RUN);
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ["run.mjs", s.url, p.url, ADMIN_TOKEN],
          { cwd: join(dir, "caller") },
          (error, stdout, stderr) => resolve({ status: error ? 1 : 0, stdout, stderr }),
        );
        void child;
      });
      assert.equal(run.status, 0, run.stderr);
      const result = JSON.parse(run.stdout);
      assert.deepEqual(result.burst, Array(12).fill(201));
      assert.equal(result.once, 201);
      // Retried after the lost answer, and again after a 429 when the burst's budget is still spent: one key for all.
      const posts = p.seen.filter((r) => r.method === "POST");
      assert.ok(posts.length >= 2, `retried behind the proxy (${posts.length} POSTs)`);
      const keys = new Set(posts.map((r) => r.headers["idempotency-key"]));
      assert.ok(keys.size === 1 && !keys.has(undefined), "every attempt carries the same Idempotency-Key");
      const ids = result.seen.map((c: { id: string }) => c.id);
      assert.equal(new Set(ids).size, ids.length, "no customer twice");
      assert.equal(result.seen.filter((c: { lastName: string }) => c.lastName === "Packed").length, 12);
      assert.deepEqual(
        result.seen.filter((c: { lastName: string }) => c.lastName === "PackedOnce").map((c: { id: string }) => c.id),
        [result.onceId],
      );
      assert.equal(result.job, "SUCCEEDED");
    } finally {
      await p.close();
    }
  });
});

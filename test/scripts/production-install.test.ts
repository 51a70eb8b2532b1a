// The production install the README documents: package.json, package-lock.json, the two specs, a built dist/
// and the twinspec package's manifest and shipped files (bin/, dist/, assets/, parts/) copied to a folder, the production dependencies only (what `npm ci --omit=dev` installs, laid out
// from this checkout's node_modules so that nothing downloads), no sources. The server must start there and serve
// REST, GraphQL, the docs and GraphiQL: a runtime import of a devDependency fails here, not in production.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ADMIN_TOKEN } from "../support/auth.js";
import { spawnServer, TEST_SECRET, type ServerProcess } from "twinspec-dev/testing";
import { ensureBuilt } from "../support/process.js";
import { call, gql } from "../support/server.js";
import { createClient as createSseClient } from "graphql-sse";
import { subscriptionExample } from "../../examples/graphql.js";

const ROOT = process.cwd();

interface LockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The package folders `npm ci --omit=dev` would install: the application's dependencies and theirs, resolved from
 * package-lock.json as node resolves them (nested node_modules first, then each enclosing one). Optional peers (the
 * OpenTelemetry SDK) are left out, as npm leaves them out. Not `npm ls --omit=dev`: in this repository it also lists
 * the other workspaces' dependencies (create-twinspec's mocha, tsx, typescript), which an application does not have.
 */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")).packages as Record<string, LockEntry>;
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir = from; dir; ) {
      if (lock[`${dir}/node_modules/${name}`]) return `${dir}/node_modules/${name}`;
      const up = dir.lastIndexOf("/node_modules/");
      dir = up < 0 ? "" : dir.slice(0, up);
    }
    return lock[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
  };
  const found = new Set<string>();
  const queue = [""];
  while (queue.length) {
    const at = queue.shift()!;
    const entry = lock[at];
    const optionalPeers = Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional)
      .map(([name]) => name);
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name));
    for (const name of [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ]) {
      const dep = resolve(at, name);
      if (!dep || found.has(dep)) continue; // another platform's optional binary
      found.add(dep);
      queue.push(lock[dep].link ? lock[dep].resolved! : dep);
    }
  }
  return [...found].map((p) => join(ROOT, p));
}

const METRICS_TOKEN = "scrape-the-production-install-0123";

describe("a production install (npm ci --omit=dev, dist/ copied, no sources)", function () {
  this.timeout(120_000);
  let dir: string;
  let server: ServerProcess | undefined;

  before(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "twinspec-production-"));
    // The twinspec package as a workspace holds it: its manifest and what it ships ("files": bin/, the compiled
    // dist/, assets/, parts/; node_modules/twinspec links there).
    const shipped = (
      JSON.parse(readFileSync(join(ROOT, "packages/twinspec/package.json"), "utf8")) as { files: string[] }
    ).files.map((f) => `packages/twinspec/${f.replace(/\/$/, "")}`);
    for (const f of [
      "package.json",
      "package-lock.json",
      "openapi.yaml",
      "schema.graphql",
      "dist",
      "packages/twinspec/package.json",
      ...shipped,
    ])
      cpSync(join(ROOT, f), join(dir, f), { recursive: true });
    // Outermost folders first; a package's own nested node_modules comes along with it.
    const packages = productionPackages().sort((a, b) => a.length - b.length);
    const copied: string[] = [];
    for (const pkg of packages) {
      if (copied.some((c) => pkg.startsWith(c + "/"))) continue;
      const target = join(dir, relative(ROOT, pkg));
      mkdirSync(dirname(target), { recursive: true });
      execFileSync("cp", ["-al", pkg, target]); // hard links: fast, and nothing here writes to them
      copied.push(pkg);
    }
    assert.ok(!existsSync(join(dir, "node_modules/mocha")), "devDependencies are not installed");
    // npm start there: twinspec-app start finds no sources and no compiler, and serves the dist/ it was given.
    server = await spawnServer(process.execPath, ["node_modules/twinspec/bin/twinspec-app.js", "start"], {
      cwd: dir,
      env: { NODE_ENV: "production", GRAPHIQL: "on", METRICS_TOKEN, DATABASE_URL: "sqlite::memory:", NODE_OPTIONS: "" },
      timeoutMs: 60_000,
    });
  });

  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts without sources, and serves REST and GraphQL", async () => {
    assert.ok(!existsSync(join(dir, "src")) && !existsSync(join(dir, "packages/twinspec/src")));
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await call(`${server!.url}/customers`, {
      method: "POST",
      headers: auth,
      json: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    });
    assert.equal(created.status, 201, created.text);
    const read = await gql(server!.url, `{ customer(customerId: "${created.json.customerId}") { email } }`, undefined, {
      token: ADMIN_TOKEN,
    });
    assert.deepEqual(read.json, { data: { customer: { email: "ada@example.com" } } });
  });

  // GraphiQL is off in production unless GRAPHIQL=on, as here.
  it("serves the API docs, the specs and GraphiQL from its own dependencies (offline)", async () => {
    const docs = await call(`${server!.url}/docs`);
    assert.equal(docs.status, 200);
    const asset = /src="([^"]+\.js)"/.exec(docs.text)?.[1];
    assert.ok(asset, docs.text.slice(0, 500));
    assert.equal((await call(new URL(asset, `${server!.url}/docs/`).href)).status, 200);
    // Swagger UI is a prebuilt asset of the package too (assets/swagger-ui/): swagger-ui-dist is not installed.
    assert.ok(!existsSync(join(dir, "node_modules/swagger-ui-dist")), "swagger-ui-dist is not installed");
    assert.equal((await call(`${server!.url}/openapi.json`)).json.openapi, "3.1.0");
    const graphiql = await call(`${server!.url}/graphql`, { headers: { accept: "text/html" } });
    assert.equal(graphiql.status, 200);
    assert.match(graphiql.headers.get("content-type") ?? "", /text\/html/);
    // GraphiQL is a prebuilt asset of the package: no React among the production dependencies.
    assert.equal((await call(`${server!.url}/graphql/assets/graphiql.js`)).status, 200);
    assert.ok(!existsSync(join(dir, "node_modules/react")), "react is not installed");
  });

  // The runtime's libraries (Koa, busboy, graphql-ws, graphql-sse, koa-compress, prom-client, …) are bundled into
  // twinspec's dist/ (packages/twinspec/scripts/bundle.mjs); the tests beside src/ run the sources, so here each is
  // used once through the bundle as a deployed application has it.
  it("through the bundled libraries: an upload, subscriptions over WebSocket and SSE, compression, metrics", async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await call(`${server!.url}/customers`, {
      method: "POST",
      headers: auth,
      json: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" },
    });
    const form = new FormData();
    const png = readFileSync(new URL("../fixtures/avatars/pixel.png", import.meta.url));
    form.append("image", new Blob([png], { type: "image/png" }), "me.png");
    const upload = await call(`${server!.url}/customers/${created.json.customerId}/avatar`, {
      method: "PUT",
      headers: auth,
      body: form,
    });
    assert.equal(upload.status, 201, upload.text);
    const avatar = await fetch(`${server!.url}/customers/${created.json.customerId}/avatar`, { headers: auth });
    assert.ok(Buffer.from(await avatar.arrayBuffer()).equals(png), "the bytes uploaded");

    const ws = await subscriptionExample(`${server!.url}/graphql`, ADMIN_TOKEN);
    assert.deepEqual(
      ws.received.map((r) => r.status),
      ["PAID", "SHIPPED"],
    );

    const sse = createSseClient({ url: `${server!.url}/graphql/stream`, headers: auth, retryAttempts: 0 });
    try {
      const events = sse.iterate({
        query: "subscription ($customerId: ID!) { orderStatusChanged(customerId: $customerId) { status } }",
        variables: { customerId: created.json.customerId },
      });
      const first = events.next();
      await new Promise((resolve) => setTimeout(resolve, 250));
      const order = await call(`${server!.url}/customers/${created.json.customerId}/orders`, {
        method: "POST",
        headers: auth,
        json: { items: [{ sku: "BOOK-1", quantity: 1, unitPrice: 3 }] },
      });
      assert.equal(order.status, 201, order.text);
      const paid = await gql(
        server!.url,
        `mutation { updateOrderStatus(orderId: "${order.json.orderId}", status: PAID) { status } }`,
        undefined,
        { token: ADMIN_TOKEN },
      );
      assert.deepEqual(paid.json, { data: { updateOrderStatus: { status: "PAID" } } });
      assert.deepEqual((await first).value?.data, { orderStatusChanged: { status: "PAID" } });
      await events.return?.();
    } finally {
      sse.dispose();
    }

    // fetch inflates what it is sent, and keeps the header that says it was compressed.
    const gzipped = await fetch(`${server!.url}/openapi.json`, { headers: { "accept-encoding": "gzip" } });
    assert.equal(gzipped.headers.get("content-encoding"), "gzip");
    assert.equal(((await gzipped.json()) as { openapi: string }).openapi, "3.1.0");

    const metrics = await call(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(metrics.status, 200, metrics.text);
    assert.match(metrics.text, /^process_cpu_user_seconds_total /m);
  });

  // The OpenTelemetry SDK is an optional peer of twinspec: not installed here. Tracing asked for without it stops
  // the start with the one line that says what to install.
  it("without the OpenTelemetry SDK, an OTLP endpoint stops the start with the npm install line", () => {
    assert.ok(!existsSync(join(dir, "node_modules/@opentelemetry/sdk-trace-base")), "the SDK is not installed");
    const run = spawnSync(process.execPath, ["node_modules/twinspec/bin/twinspec-app.js", "start"], {
      cwd: dir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        AUTH_SECRET: TEST_SECRET,
        DATABASE_URL: "sqlite::memory:",
        NODE_OPTIONS: "",
        HOST: "127.0.0.1",
        PORT: "0",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(
      lines[0],
      /^twinspec: tracing is on .* is not installed; .*run `npm install @opentelemetry\/api@\S+ .*@opentelemetry\/sdk-trace-base@\S+/,
    );
  });
});

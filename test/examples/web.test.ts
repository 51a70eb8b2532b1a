// The web example (examples/web) in a real browser: the page is bundled with esbuild as a user would (build.ts),
// served from its own origin, and run in Debian's Chromium (playwright-core) against the real server over real
// HTTP, WebSocket and SSE, cross-origin (CORS). What it proves: the client package works in a browser — Link pages,
// If-Match and its 412, GraphQL subscriptions over both transports — and its browser bundle takes nothing of Node.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { createRestClient, type RestApi } from "twinspec-commerce-client";
import ts from "typescript";
import { buildWeb, type WebBuild } from "../../examples/web/build.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { startServer, type TestServer } from "../support/server.js";
import { until } from "../support/wait.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** The longest any one wait for the page may take. */
const WAIT = 10_000;
const CUSTOMERS = 25;
const PAGE_SIZE = 10;
const ITEMS = [{ sku: "BOOK-1", quantity: 2, unitPrice: 12.5 }];

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

/** The built page's directory over HTTP on 127.0.0.1: index.html and main.js, nothing else. */
async function serveStatic(dir: string): Promise<{ server: Server; origin: string }> {
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const name = path === "/" ? "index.html" : path.slice(1);
    const type = TYPES[extname(name)];
    if (!type || !/^[\w.-]+$/.test(name)) return void res.writeHead(404).end();
    try {
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(await readFile(join(dir, name)));
    } catch {
      res.writeHead(404).end();
    }
  };
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A page of the example, with the errors its console reported (and any uncaught exception). */
interface Opened {
  page: Page;
  errors: string[];
}

describe("examples/web: the client package in a web page", function () {
  this.timeout(60_000);

  let dir: string | undefined;
  let built: WebBuild;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "twinspec-web-"));
    built = await buildWeb(dir);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("bundles for the browser: the client's browser entry, nothing of Node (no `ws`); logs its size", () => {
    console.log(
      `      examples/web bundle: ${built.bytes} bytes, ${built.gzipBytes} gzipped (${built.inputs.length} source files)`,
    );
    assert.ok(built.bytes > 0 && built.gzipBytes < built.bytes);
    assert.deepEqual(
      built.inputs.filter((input) => /(^|\/)node_modules\/ws\//.test(input) || input.startsWith("node:")),
      [],
    );
    assert.ok(
      built.inputs.some((input) => input.endsWith("twinspec-client/src/graphql/browser.ts")),
      "the GraphQL client's browser entry",
    );
    assert.ok(
      !built.inputs.some((input) => input.endsWith("twinspec-client/src/graphql/node.ts")),
      "not its Node entry",
    );
  });

  it("main.ts type-checks against the client package as the bundle resolves it (examples/web/tsconfig.json: DOM)", () => {
    const configFile = fileURLToPath(new URL("../../examples/web/tsconfig.json", import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      },
    );
    assert.ok(config);
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    assert.equal(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
        getNewLine: () => "\n",
      }),
      "",
    );
  });

  describe("in Chromium, against a real server", () => {
    let site: Server | undefined;
    let pageOrigin: string;
    let server: TestServer | undefined;
    let browser: Browser | undefined;
    let api: RestApi;
    const seeded = new Map<string, string>(); // customerId → "First Last"

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        console.log(`      skipped: no Chromium at ${CHROMIUM} (Debian's "chromium" package; .ci/run installs it)`);
        this.skip();
      }
      ({ server: site, origin: pageOrigin } = await serveStatic(dir!));
      server = await startServer({ corsOrigins: [pageOrigin] });
      api = createRestClient({ baseUrl: server.url, token: ADMIN_TOKEN });
      for (let i = 1; i <= CUSTOMERS; i++) {
        const created = await api.createCustomer({
          body: { firstName: `First${i}`, lastName: `Last${i}`, email: `web${i}@example.com` },
        });
        assert.equal(created.status, 201);
        if (created.status === 201)
          seeded.set(created.body.customerId, `${created.body.firstName} ${created.body.lastName}`);
      }
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    });

    after(async () => {
      await browser?.close();
      if (site) {
        const closed = new Promise((resolve) => site!.close(resolve));
        site.closeAllConnections();
        await closed;
      }
      await server?.close();
    });

    /** Opens the page on the test server; `extra` adds to its query (transport=sse...). */
    async function open(extra: Record<string, string> = {}): Promise<Opened> {
      const page = await browser!.newPage();
      page.setDefaultTimeout(WAIT);
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      const query = new URLSearchParams({ api: server!.url, token: ADMIN_TOKEN, limit: String(PAGE_SIZE), ...extra });
      await page.goto(`${pageOrigin}/index.html?${query}`, { timeout: WAIT });
      await page
        .getByTestId("page-number")
        .filter({ hasText: /^page 1$/ })
        .waitFor();
      return { page, errors };
    }

    /** The console errors beyond those expected: Chromium logs each response it sees with an error status. */
    const unexpected = (errors: string[], ...expected: RegExp[]) =>
      errors.filter((e) => !expected.some((pattern) => pattern.test(e)));

    /** Opens the first customer of the first page in the editor (which also subscribes to its orders); its id. */
    async function openFirstCustomer(page: Page): Promise<string> {
      const first = page.getByTestId("customer").first();
      const customerId = await first.getAttribute("data-id");
      assert.ok(customerId);
      await first.getByRole("button").click();
      await page.getByTestId("editor").waitFor({ state: "visible" });
      return customerId;
    }

    it(`lists every customer exactly once, page by page: "Next page" follows the Link header (${CUSTOMERS} customers, ${PAGE_SIZE} a page)`, async () => {
      const { page, errors } = await open();
      try {
        const shown: { id: string; name: string }[] = [];
        const sizes: number[] = [];
        for (let n = 1; ; n++) {
          assert.ok(n <= Math.ceil(CUSTOMERS / PAGE_SIZE), `more pages than ${CUSTOMERS} customers make`);
          await page
            .getByTestId("page-number")
            .filter({ hasText: new RegExp(`^page ${n}$`) })
            .waitFor();
          // The page number and the list change in the same task: what is read here is page n.
          const items = await page
            .getByTestId("customer")
            .evaluateAll((elements) =>
              elements.map((e) => ({ id: e.getAttribute("data-id") ?? "", name: e.textContent ?? "" })),
            );
          sizes.push(items.length);
          shown.push(...items);
          const next = page.getByTestId("next-page");
          if (await next.isDisabled()) break;
          await next.click();
        }
        assert.deepEqual(sizes, [10, 10, 5]);
        assert.equal(new Set(shown.map((c) => c.id)).size, shown.length, "a customer shown twice");
        assert.deepEqual(shown.map((c) => c.id).sort(), [...seeded.keys()].sort());
        for (const { id, name } of shown) assert.equal(name, seeded.get(id));
        assert.deepEqual(unexpected(errors), []);
      } finally {
        await page.close();
      }
    });

    it("saves an edit with If-Match; a copy changed meanwhile by someone else is refused with 412, shown to the user", async () => {
      const { page, errors } = await open();
      try {
        const customerId = await openFirstCustomer(page);
        const status = page.getByTestId("edit-status");

        // The page's copy is current: the save applies.
        await page.getByLabel("Last name").fill("Byron");
        await page.getByTestId("save").click();
        await page.locator('[data-testid="edit-status"][data-status="200"]').waitFor();
        const saved = await api.getCustomer({ path: { customerId } });
        assert.equal(saved.status === 200 && saved.body.lastName, "Byron");

        // Someone else changes the customer over REST after the page read it (the page holds the ETag of its save).
        assert.equal(saved.status, 200);
        const other = await api.patchCustomer({
          path: { customerId },
          headers: { "If-Match": saved.status === 200 ? saved.headers.ETag : "" },
          body: { firstName: "Augusta" },
        });
        assert.equal(other.status, 200);

        // The page's save is now of a stale copy: 412, and the user sees it.
        await page.getByLabel("Last name").fill("King");
        await page.getByTestId("save").click();
        await page.locator('[data-testid="edit-status"][data-status="412"]').waitFor();
        assert.match((await status.textContent()) ?? "", /^412: .*changed by someone else/);
        assert.ok(await status.isVisible());

        // The other writer's change stands; the stale one was not applied.
        const after = await api.getCustomer({ path: { customerId } });
        assert.deepEqual(after.status === 200 && { firstName: after.body.firstName, lastName: after.body.lastName }, {
          firstName: "Augusta",
          lastName: "Byron",
        });
        assert.deepEqual(unexpected(errors, /status of 412 \(Precondition Failed\)/), []);
      } finally {
        await page.close();
      }
    });

    for (const transport of ["ws", "sse"] as const) {
      it(`shows an order's status changes live from a GraphQL subscription, fired by REST PATCH /orders/{id} (over ${transport === "ws" ? "WebSocket" : "SSE"})`, async () => {
        const listeners = () => server!.app.bus.listenerCount("orderStatusChanged");
        await until(() => listeners() === 0, "the subscriptions of earlier pages to end", WAIT);
        const { page, errors } = await open({ transport });
        // What went over the wire: the WebSockets the page opened, and its requests to the SSE endpoint.
        const sockets: string[] = [];
        const streams: string[] = [];
        page.on("websocket", (socket) => sockets.push(socket.url()));
        page.on("request", (request) => {
          if (new URL(request.url()).pathname === "/graphql/stream" && request.method() !== "OPTIONS")
            streams.push(request.url());
        });
        try {
          const customerId = await openFirstCustomer(page);
          await page
            .getByTestId("live-state")
            .filter({ hasText: transport === "ws" ? "WebSocket" : "Server-Sent Events" })
            .waitFor();
          // The subscription is live once the server holds its listener: only then can the page hear a change.
          await until(() => listeners() === 1, `the page's subscription over ${transport} to reach the server`, WAIT);

          const placed = await api.placeOrder({ path: { customerId }, body: { items: ITEMS } });
          assert.equal(placed.status, 201);
          const orderId = placed.status === 201 ? placed.body.orderId : "";
          for (const status of ["PAID", "SHIPPED"] as const) {
            const moved = await api.updateOrder({ path: { orderId }, body: { status } });
            assert.equal(moved.status, 200);
          }

          await page
            .locator(`[data-testid="order-event"][data-order-id="${orderId}"][data-status="SHIPPED"]`)
            .waitFor();
          const shown = await page
            .getByTestId("order-event")
            .evaluateAll((elements) =>
              elements.map((e) => `${e.getAttribute("data-order-id")} ${e.getAttribute("data-status")}`),
            );
          assert.deepEqual(shown, [`${orderId} PAID`, `${orderId} SHIPPED`]);
          if (transport === "ws")
            assert.deepEqual(
              { sockets, streams },
              { sockets: [`${server!.url.replace(/^http/, "ws")}/graphql`], streams: [] },
            );
          else assert.deepEqual({ sockets, streams }, { sockets: [], streams: [`${server!.url}/graphql/stream`] });
          assert.deepEqual(unexpected(errors), []);
        } finally {
          await page.close();
        }
        // Closing the page ends its subscription on the server too.
        await until(
          () => listeners() === 0,
          `the closed page's subscription over ${transport} to end on the server`,
          WAIT,
        );
      });
    }
  });
});

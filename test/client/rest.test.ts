// The generated REST SDK (client/, over twinspec-client) against the real server: a method per operation with typed
// outcomes and headers, retries only where the spec makes them safe (429 and 503 after Retry-After, lost connections),
// one Idempotency-Key per call, a token function asked again after a 401, Link pages, 202 jobs.
import assert from "node:assert/strict";
import { createRestClient } from "twinspec-commerce-client";
import { ADMIN_TOKEN } from "../support/auth.js";
import { proxy } from "../support/http-proxy.js";
import { perSecond, startServer, type TestServer } from "../support/server.js";

const person = (n: number, tag: string) => ({
  firstName: `P${n}`,
  lastName: tag,
  email: `${tag.toLowerCase()}-${n}@example.com`,
});

describe("REST SDK (client/): contract-aware calls against the real server", function () {
  this.timeout(30_000);
  let s: TestServer;
  before(async () => {
    s = await startServer({ rateLimits: perSecond(5) });
  });
  after(() => s.close());

  const sleepToNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));

  it("a method per operationId: typed arguments, a status that narrows body and headers", async () => {
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN });
    const created = await api.createCustomer({ body: person(1, "Typed") });
    assert.equal(created.status, 201);
    if (created.status !== 201) return;
    assert.match(created.headers.Location, /^\/customers\//);
    const read = await api.getCustomer({ path: { customerId: created.body.customerId } });
    assert.equal(read.status, 200);
    if (read.status === 200) {
      assert.match(read.headers.ETag ?? "", /^(W\/)?"/);
      assert.equal(read.body.email, "typed-1@example.com");
      // @ts-expect-error a header the spec does not declare for this response
      void read.headers.Link;
    }
    const missing = await api.getCustomer({ path: { customerId: "nobody" } });
    assert.equal(missing.status, 404);
    if (missing.status === 404) assert.equal(missing.body.status, 404);
    // @ts-expect-error the path parameter is required
    await api.getCustomer({}).catch(() => undefined);
  });

  it("a burst of creates that meets 429 all succeed, each after Retry-After", async () => {
    await sleepToNextSecond();
    const statuses: number[] = [];
    const api = createRestClient({
      baseUrl: s.url,
      token: ADMIN_TOKEN,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, n) => api.createCustomer({ body: person(n, "Burst") })),
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array(12).fill(201),
    );
    assert.ok(statuses.filter((x) => x === 429).length >= 7, `429s met: ${statuses.join(",")}`);
    assert.equal(new Set(outcomes.map((o) => (o.body as { customerId: string }).customerId)).size, 12);
  });

  it("a create whose answer is lost (503 from a proxy) is retried with the same Idempotency-Key and exists once", async () => {
    await sleepToNextSecond();
    const p = await proxy(s.url, (seen, i) => (seen.method === "POST" && i === 0 ? "503 after forwarding" : "forward"));
    try {
      const api = createRestClient({ baseUrl: p.url, token: ADMIN_TOKEN });
      const created = await api.createCustomer({ body: person(1, "Once") });
      assert.equal(created.status, 201);
      const posts = p.seen.filter((r) => r.method === "POST");
      assert.equal(posts.length, 2);
      assert.ok(posts[0].headers["idempotency-key"]);
      assert.equal(posts[1].headers["idempotency-key"], posts[0].headers["idempotency-key"]);
      await sleepToNextSecond();
      const all: string[] = [];
      for await (const c of createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN }).paginate("listCustomers", {
        query: { limit: 100 },
      }))
        if (c.lastName === "Once") all.push(c.customerId);
      assert.deepEqual(all, [(created.body as { customerId: string }).customerId]);
    } finally {
      await p.close();
    }
  });

  it("never retries what the spec does not make safe: a PATCH without a key answers its 503", async () => {
    const p = await proxy(s.url, () => "503");
    try {
      const api = createRestClient({ baseUrl: p.url, token: ADMIN_TOKEN });
      const patched = await api.patchCustomer({
        path: { customerId: "any" },
        headers: { "If-Match": '"x"' },
        body: { lastName: "No" },
      });
      assert.equal(patched.status, 503);
      assert.equal(p.seen.length, 1);
      const read = await api.getCustomer({ path: { customerId: "any" } }, { retry: { attempts: 3, baseDelay: 10 } });
      assert.equal(read.status, 503);
      assert.equal(p.seen.length, 4, "a GET is tried three times");
    } finally {
      await p.close();
    }
  });

  it("a lost connection is retried for a read; retry: false turns retries off", async () => {
    await sleepToNextSecond();
    const p = await proxy(s.url, (_, i) => (i === 0 ? "cut" : "forward"));
    try {
      const api = createRestClient({ baseUrl: p.url, token: ADMIN_TOKEN });
      const page = await api.listCustomers({ query: { limit: 1 } });
      assert.equal(page.status, 200);
      assert.equal(p.seen.length, 2);
      const off = createRestClient({ baseUrl: p.url, token: ADMIN_TOKEN, retry: false });
      const p2 = await proxy(s.url, () => "cut");
      try {
        await assert.rejects(createRestClient({ baseUrl: p2.url, token: ADMIN_TOKEN, retry: false }).listCustomers());
        assert.equal(p2.seen.length, 1);
      } finally {
        await p2.close();
      }
      void off;
    } finally {
      await p.close();
    }
  });

  it("a token function is asked again after a 401, and the call retried once", async () => {
    await sleepToNextSecond();
    const given = ["not-a-token", ADMIN_TOKEN];
    let asked = 0;
    const api = createRestClient({ baseUrl: s.url, token: () => given[Math.min(asked++, 1)] });
    const page = await api.listCustomers({ query: { limit: 1 } });
    assert.equal(page.status, 200);
    assert.equal(asked, 2);
    let never = 0;
    const refused = await createRestClient({ baseUrl: s.url, token: () => (never++, "still-bad") }).listCustomers();
    assert.equal(refused.status, 401);
    assert.equal(never, 2, "asked once more, not again and again");
  });

  it("paginate yields every customer exactly once across Link pages; nextPage walks them one by one", async () => {
    await sleepToNextSecond();
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN, retry: { attempts: 10 } });
    const ids: string[] = [];
    for await (const c of api.paginate("listCustomers", { query: { limit: 3 } })) ids.push(c.customerId);
    assert.ok(ids.length >= 14, `${ids.length} customers`);
    assert.equal(new Set(ids).size, ids.length, "no customer twice");
    const byPages: string[] = [];
    const links: boolean[] = [];
    type Page = Awaited<ReturnType<typeof api.listCustomers>>;
    for (
      let page: Page | undefined = await api.listCustomers({ query: { limit: 5 } });
      page;
      page = await api.nextPage(page)
    ) {
      assert.equal(page.status, 200);
      if (page.status === 200) byPages.push(...page.body.items.map((c) => c.customerId));
      if (page.status === 200) links.push(page.headers.Link !== undefined);
    }
    assert.deepEqual(
      links,
      [...Array(links.length - 1).fill(true), false],
      "every page but the last names the next, as a typed header",
    );
    assert.deepEqual(byPages, ids);
  });

  it("waitFor follows a checkout's 202 to its job's end: SUCCEEDED", async () => {
    await sleepToNextSecond();
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN, retry: { attempts: 10 } });
    const customer = await api.createCustomer({ body: person(1, "Checkout") });
    assert.equal(customer.status, 201);
    const customerId = (customer.body as { customerId: string }).customerId;
    const cart = await api.createCart({
      path: { customerId },
      body: { items: [{ sku: "BOOK-1", quantity: 2, unitPrice: 12.5 }] },
    });
    assert.equal(cart.status, 201);
    const accepted = await api.checkoutCart({ path: { cartId: (cart.body as { cartId: string }).cartId } });
    assert.equal(accepted.status, 202);
    if (accepted.status !== 202) return;
    const job = await api.waitFor(accepted);
    assert.equal(job.status, "SUCCEEDED");
    assert.ok(job.result, "the job names what it made");
  });
});

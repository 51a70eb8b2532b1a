// Webhook delivery against a real receiver on 127.0.0.1: an order's status change, made over REST or GraphQL, reaches
// a registered endpoint signed so that the `standardwebhooks` library verifies it, with the event log's id; a
// receiver that fails gets each event exactly once after it recovers, in order; one that is down gets everything
// later; a rotated secret verifies with both secrets during the overlap; private addresses are refused unless allowed.
// Endpoints are registered through App.webhooks here; test/webhooks/endpoints.test.ts registers them over the API.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { InvalidInputError, UnprocessableError } from "twinspec";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";
import { until } from "../support/wait.js";
import { FAST, receiver } from "../support/webhooks.js";

describe("webhooks: delivery to a receiver", function () {
  this.timeout(60_000);
  let s: TestServer;
  let r: Awaited<ReturnType<typeof receiver>>;
  afterEach(async () => {
    await s?.close();
    await r?.close();
  });

  async function order() {
    const customer = (await call(`${s.url}/customers`, { method: "POST", json: ada })).json;
    const placed = await call(`${s.url}/customers/${customer.customerId}/orders`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
    });
    assert.equal(placed.status, 201, placed.text);
    return placed.json as { orderId: string; customerId: string };
  }
  const pay = async (orderId: string, status = "PAID") => {
    const res = await call(`${s.url}/orders/${orderId}`, {
      method: "PATCH",
      json: { status },
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(res.status, 200, res.text);
  };
  const register = (owner: string | null = null, url = r.url) =>
    s.app.webhooks!.endpoints.create({ url, events: ["orderStatusChanged"], owner });

  it("a change over REST and over GraphQL reaches the endpoint, verified by the standardwebhooks library, with the event log's id", async () => {
    s = await startServer({ webhooks: FAST });
    r = await receiver();
    const { orderId, customerId } = await order();
    const { secret } = await register(customerId);
    // Another customer's endpoint gets nothing of this customer's.
    const other = await s.app.webhooks!.endpoints.create({
      url: `${r.url}?other`,
      events: ["orderStatusChanged"],
      owner: "cus_someoneelse",
    });
    const sse = s.app.bus.subscribe("orderStatusChanged", () => {});
    await pay(orderId);
    const shipped = await gql(
      s.url,
      `mutation($o: ID!) { updateOrderStatus(orderId: $o, status: SHIPPED) { status } }`,
      { o: orderId },
    );
    assert.equal(shipped.json.errors, undefined, shipped.text);
    sse();
    await until(() => r.got.length >= 2, "two deliveries");
    const logged = await s.app.bus.read!("orderStatusChanged", 0, 10);
    const hook = new Webhook(secret);
    const bodies = r.got.map(
      (g) =>
        hook.verify(g.body, g.headers as Record<string, string>) as {
          type: string;
          data: { orderId: string; status: string };
        },
    );
    assert.deepEqual(
      bodies.map((b) => [b.type, b.data.orderId, b.data.status]),
      [
        ["orderStatusChanged", orderId, "PAID"],
        ["orderStatusChanged", orderId, "SHIPPED"],
      ],
    );
    assert.deepEqual(
      r.got.map((g) => g.headers["webhook-id"]),
      logged.map((e) => String(e.position)),
    );
    assert.equal(r.got.filter((g) => g.headers["webhook-id"] && g.body.includes("someoneelse")).length, 0);
    // A wrong secret does not verify.
    assert.throws(() =>
      new Webhook(`whsec_${Buffer.from("x".repeat(24)).toString("base64")}`).verify(
        r.got[0].body,
        r.got[0].headers as Record<string, string>,
      ),
    );
    const attempts = await s.app.webhooks!.endpoints.attempts(other.endpoint.endpointId);
    assert.deepEqual(attempts, []);
  });

  it("503 for the first 5 attempts, then 200: each event exactly once after recovery, in order", async () => {
    s = await startServer({ webhooks: FAST });
    r = await receiver((n) => (n <= 5 ? { status: 503 } : { status: 200 }));
    const { endpoint } = await register();
    const orders = [await order(), await order(), await order()];
    for (const o of orders) await pay(o.orderId);
    await until(() => r.got.length >= 5 + 3, "the deliveries after recovery");
    const ok = r.got.slice(5);
    const ids = ok.map((g) => Number(g.headers["webhook-id"]));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      "in event order",
    );
    assert.deepEqual(
      ok.map((g) => JSON.parse(g.body).data.orderId),
      orders.map((o) => o.orderId),
      "each once, in order",
    );
    // The failures were all at the first event: later ones waited behind it.
    assert.deepEqual(new Set(r.got.slice(0, 5).map((g) => g.headers["webhook-id"])).size, 1);
    // Each attempt is recorded once the receiver answered it.
    await until(
      async () => (await s.app.webhooks!.endpoints.attempts(endpoint.endpointId)).length >= 8,
      "the attempts recorded",
    );
    const attempts = await s.app.webhooks!.endpoints.attempts(endpoint.endpointId);
    assert.deepEqual(attempts.map((a) => a.outcome).reverse(), [
      "retry",
      "retry",
      "retry",
      "retry",
      "retry",
      "delivered",
      "delivered",
      "delivered",
    ]);
    assert.equal(attempts.at(-1)!.status, 503);
  });

  it("Retry-After is honoured: no attempt before it", async () => {
    s = await startServer({ webhooks: FAST });
    const at: number[] = [];
    r = await receiver(
      (n) => (at.push(Date.now()), n === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }),
    );
    await register();
    await pay((await order()).orderId);
    await until(() => r.got.length >= 2, "the retry");
    assert.ok(at[1] - at[0] >= 1000, "the second attempt waited the Retry-After second");
  });

  it("a receiver down while 50 events happen gets all 50 once it is back", async () => {
    // A schedule that outlasts the outage: the first event waits, the others behind it.
    s = await startServer({ webhooks: { ...FAST, scheduleMs: [100, 200, 400, 800, 1600, 3200, 6400, 12_800] } });
    r = await receiver();
    const { port } = r;
    await register();
    await r.close();
    const orders = [];
    for (let i = 0; i < 50; i++) orders.push(await order());
    for (const o of orders) await pay(o.orderId);
    // Back on the same port.
    const again = createServer();
    const got: string[] = [];
    again.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req
        .on("data", (c: Buffer) => chunks.push(c))
        .on("end", () => (got.push(Buffer.concat(chunks).toString("utf8")), res.writeHead(200).end()));
    });
    await new Promise<void>((resolve) => again.listen(port, "127.0.0.1", resolve));
    try {
      await until(() => got.length >= 50, "the 50 deliveries", 40_000);
      assert.deepEqual(
        got.map((b) => JSON.parse(b).data.orderId),
        orders.map((o) => o.orderId),
      );
    } finally {
      await new Promise((resolve) => again.close(resolve));
    }
  });

  it("after a rotation, deliveries verify with the new secret and with the old one during the overlap", async () => {
    s = await startServer({ webhooks: FAST });
    r = await receiver();
    const { endpoint, secret: old } = await register();
    const rotated = await s.app.webhooks!.endpoints.rotate(endpoint.endpointId);
    await pay((await order()).orderId);
    await until(() => r.got.length >= 1, "the delivery");
    const [g] = r.got;
    for (const secret of [old, rotated!.secret])
      assert.equal(
        (new Webhook(secret).verify(g.body, g.headers as Record<string, string>) as { type: string }).type,
        "orderStatusChanged",
      );
    assert.equal(String(g.headers["webhook-signature"]).split(" ").length, 2);
  });

  it("a private or loopback address is refused unless allowed; bad input names its field", async () => {
    s = await startServer({ webhooks: { ...FAST, policy: {} } });
    const refused = async (url: unknown, field: string, message: RegExp) => {
      const err = await s.app.webhooks!.endpoints.create({ url, events: ["orderStatusChanged"], owner: null }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof InvalidInputError || err instanceof UnprocessableError, String(err));
      assert.equal(err.errors[0].pointer, `/${field}`);
      assert.match(err.message, message);
    };
    await refused("https://127.0.0.1/hooks", "url", /private, loopback or link-local/);
    await refused("https://10.1.2.3/hooks", "url", /private/);
    await refused("https://[::1]/hooks", "url", /private/);
    await refused("http://example.com/hooks", "url", /must be https:/);
    await refused("not a url", "url", /not an absolute URL/);
    const err = await s.app
      .webhooks!.endpoints.create({ url: "https://example.com/h", events: ["nope"], owner: null })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(err instanceof InvalidInputError && err.errors[0].pointer === "/events/0", String(err));
    // A public-looking name that resolves to loopback is refused at delivery time: the attempt fails, nothing is sent.
    await s.close();
    s = await startServer({ webhooks: { ...FAST, policy: { allowHttp: true } } });
    r = await receiver();
    const { endpoint } = await s.app.webhooks!.endpoints.create({
      url: `http://localhost:${r.port}/hooks`,
      events: ["orderStatusChanged"],
      owner: null,
    });
    await pay((await order()).orderId);
    await until(async () => (await s.app.webhooks!.endpoints.attempts(endpoint.endpointId)).length > 0, "an attempt");
    const [attempt] = await s.app.webhooks!.endpoints.attempts(endpoint.endpointId);
    assert.match(attempt.error ?? "", /resolves to .*private, loopback or link-local/);
    assert.equal(r.got.length, 0);
  });
});

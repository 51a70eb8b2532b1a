// Webhook delivery across instances (PostgreSQL): the instance delivering to an endpoint is SIGKILLed mid-burst, and
// another instance on the same database finishes the deliveries once the dead one's claim runs out: every event
// reaches the receiver, in order, none lost (the one in flight may come twice, with the same webhook-id).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { openStore } from "../../packages/twinspec/src/store/database.js";
import { WebhookEndpoints } from "../../packages/twinspec/src/webhooks/endpoints.js";
import { TEST_SECRET } from "../support/auth.js";
import { ada, call } from "../support/server.js";
import { onPostgres, startInstances, type Instances } from "../support/instances.js";
import { until } from "../support/wait.js";

const EVENTS = 60;
const ENV = {
  WEBHOOK_ALLOW_HTTP: "on",
  WEBHOOK_ALLOW_PRIVATE: "on",
  WEBHOOK_LEASE_MS: "1000",
  WEBHOOK_POLL_MS: "50",
  WEBHOOK_SCHEDULE_MS: "50,100,200,400,800,1600,3200",
};

(onPostgres ? describe : describe.skip)("webhooks across instances", function () {
  this.timeout(120_000);
  let group: Instances;
  afterEach(() => group?.stop());

  it("SIGKILL of the delivering instance mid-burst: a second instance finishes, none lost, in order", async () => {
    // The receiver answers each delivery 20 ms late, once released.
    const got: { id: string; orderId: string }[] = [];
    let released = false;
    const held: (() => void)[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const answer = () =>
          setTimeout(() => {
            got.push({
              id: String(req.headers["webhook-id"]),
              orderId: JSON.parse(Buffer.concat(chunks).toString("utf8")).data.orderId,
            });
            res.writeHead(204).end();
          }, 20);
        if (released) answer();
        else held.push(answer);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      group = await startInstances(1, ENV);
      const [a] = group.servers;
      const store = await openStore(group.database.url);
      try {
        await new WebhookEndpoints(store.db, TEST_SECRET, ["orderStatusChanged"], {
          allowHttp: true,
          allowPrivate: true,
        }).create({
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
          events: ["orderStatusChanged"],
          owner: null,
        });
      } finally {
        await store.close();
      }
      const customer = (await call(`${a.url}/customers`, { method: "POST", json: ada })).json;
      const orders: string[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const placed = await call(`${a.url}/customers/${customer.customerId}/orders`, {
          method: "POST",
          json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
        });
        const paid = await call(`${a.url}/orders/${placed.json.orderId}`, {
          method: "PATCH",
          json: { status: "PAID" },
          headers: { "content-type": "application/merge-patch+json" },
        });
        assert.equal(paid.status, 200, paid.text);
        orders.push(placed.json.orderId);
      }
      released = true;
      for (const answer of held.splice(0)) answer();
      await until(() => got.length >= 10, "the first deliveries");
      a.child.kill("SIGKILL");
      assert.equal(await a.exited, null, "A was killed");
      const before = got.length;
      assert.ok(before < EVENTS, `killed mid-burst (${before} delivered)`);
      await group.add();
      await until(
        () => new Set(got.map((g) => g.orderId)).size >= EVENTS,
        "every event, from the second instance",
        60_000,
      );
      // In order, each once, but for the one in flight when A died (sent again with its webhook-id).
      const distinct = got.filter((g, i) => i === 0 || g.id !== got[i - 1].id);
      assert.deepEqual(
        distinct.map((g) => g.orderId),
        orders,
      );
      assert.ok(got.length - distinct.length <= 1, `at most the one in flight twice (${got.length - distinct.length})`);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

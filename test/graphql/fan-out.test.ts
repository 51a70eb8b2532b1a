// Many subscribers, many events (both databases): 1,000 subscriptions over graphql-ws (10 sockets of 100, 10 per
// customer of 100) and 10,000 events written through the event log in transactions of 200. Every subscriber
// receives every event of its customer exactly once, in order, and nothing of other customers.
import assert from "node:assert/strict";
import type { Client } from "graphql-ws";
import { startServer, type TestServer } from "../support/server.js";
import { readWs, wsClient, type Received } from "../support/events.js";
import { seedCustomer } from "./helpers.js";
import { until as waitUntil } from "../support/wait.js";

const CUSTOMERS = 100;
const PER_CUSTOMER = 10;
const SOCKETS = 10;
const EVENTS = 10_000;
const PER_TRANSACTION = 200;

describe("fan-out: 1,000 subscribers × 10,000 events", function () {
  this.timeout(120_000);
  let s: TestServer;
  const clients: Client[] = [];
  before(async () => (s = await startServer()));
  after(async () => {
    await Promise.all(clients.map(async (c) => c.dispose()));
    await s.close();
  });

  it("every subscriber receives every matching event once, in order", async () => {
    const customers: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) customers.push((await seedCustomer(s, 1000 + i)).customerId);
    for (let i = 0; i < SOCKETS; i++) clients.push(wsClient(s.url));
    const subscribers: { customerId: string; got: Received[] }[] = [];
    const readings: Promise<unknown>[] = [];
    for (let i = 0; i < CUSTOMERS * PER_CUSTOMER; i++) {
      const subscriber = { customerId: customers[i % CUSTOMERS], got: [] as Received[] };
      subscribers.push(subscriber);
      readings.push(readWs(clients[i % SOCKETS], subscriber.customerId, subscriber.got));
    }
    await waitUntil(
      () => s.app.bus.listenerCount("orderStatusChanged") === subscribers.length,
      "every subscription to listen",
      30_000,
      20,
    );

    const expected = new Map<string, string[]>(customers.map((c) => [c, []]));
    for (let first = 0; first < EVENTS; first += PER_TRANSACTION) {
      await s.store.db.transaction().execute(async (trx) => {
        for (let i = first; i < first + PER_TRANSACTION; i++) {
          const customerId = customers[i % CUSTOMERS];
          const orderId = `ord_fan${i}`;
          expected.get(customerId)!.push(`${orderId} PAID`);
          await s.app.bus.publish(
            "orderStatusChanged",
            { orderId, customerId, status: "PAID", sentAt: new Date().toISOString() },
            trx,
          );
        }
      });
    }
    const each = EVENTS / CUSTOMERS;
    await waitUntil(
      () => subscribers.every((x) => x.got.length >= each),
      "every subscriber to receive its events",
      90_000,
      50,
    );
    await new Promise((r) => setTimeout(r, 200));
    for (const { customerId, got } of subscribers) {
      assert.deepEqual(
        got.map((g) => g.change),
        expected.get(customerId),
      );
      assert.equal(new Set(got.map((g) => g.id)).size, got.length, "no id twice");
    }
    await Promise.all(clients.splice(0).map(async (c) => c.dispose()));
    await Promise.all(readings);
  });
});

// npm run bench:webhooks — webhook delivery: latency from an event's commit (its created_at in the event log, written
// in the change's transaction) to the receiver's 2xx, p50/p99, and deliveries per second, to 1 endpoint and to 100
// endpoints of one local receiver on 127.0.0.1. --events N order status changes (default 300), made 10 at a time over
// REST. TEST_DATABASE=postgres for PostgreSQL (a fresh schema, dropped after).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ada, call, startServer } from "../test/support/server.js";
import { arg } from "./load.js";

const EVENTS = Number(arg("events", "300"));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(endpoints: number) {
  const arrivals: { id: string; at: number }[] = [];
  const receiver = createServer((req, res) => {
    req.resume().on("end", () => {
      res.writeHead(204).end();
      arrivals.push({ id: String(req.headers["webhook-id"]), at: Date.now() });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const s = await startServer({
    webhooks: { policy: { allowHttp: true, allowPrivate: true }, concurrency: 100, pollMs: 200 },
  });
  try {
    for (let i = 0; i < endpoints; i++)
      await s.app.webhooks!.endpoints.create({ url: `${url}?${i}`, events: ["orderStatusChanged"], owner: null });
    const customer = (await call(`${s.url}/customers`, { method: "POST", json: ada })).json;
    const orders: string[] = [];
    for (let i = 0; i < EVENTS; i++)
      orders.push(
        (
          await call(`${s.url}/customers/${customer.customerId}/orders`, {
            method: "POST",
            json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
          })
        ).json.orderId,
      );
    const started = Date.now();
    for (let i = 0; i < orders.length; i += 10) {
      await Promise.all(
        orders.slice(i, i + 10).map((o) =>
          call(`${s.url}/orders/${o}`, {
            method: "PATCH",
            json: { status: "PAID" },
            headers: { "content-type": "application/merge-patch+json" },
          }),
        ),
      );
    }
    const want = EVENTS * endpoints;
    const deadline = Date.now() + 300_000;
    while (arrivals.length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const logged = new Map(
      (await s.app.bus.read!("orderStatusChanged", 0, EVENTS * 2)).map((e) => [String(e.position), e]),
    );
    const created = new Map(
      (await s.store.db.selectFrom("twinspec_events").select(["position", "created_at"]).execute()).map((r) => [
        String(r.position),
        Number(r.created_at),
      ]),
    );
    const latencies = arrivals
      .filter((a) => logged.has(a.id))
      .map((a) => a.at - created.get(a.id)!)
      .sort((a, b) => a - b);
    const seconds = (Math.max(...arrivals.map((a) => a.at)) - started) / 1000;
    console.log(
      `${endpoints} endpoint(s), ${EVENTS} events, ${arrivals.length}/${want} deliveries: latency p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms; ${(arrivals.length / seconds).toFixed(0)} deliveries/s`,
    );
  } finally {
    await s.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

console.log(`webhooks on ${process.env.TEST_DATABASE ?? "sqlite"}`);
await run(1);
await run(100);
process.exit(0);

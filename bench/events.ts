// npm run bench:events — the event log's latency and throughput: from a writer starting the transaction that
// publishes an event to a listener on another bus (another instance on PostgreSQL; the same one on SQLite) having
// it, p50/p99, one event at a time (--events N, default 2,000); then throughput with --writers N (default 8)
// concurrent writers, events per second delivered. Next to it, on PostgreSQL, the NOTIFY-only path of the bus
// before the log (a pg_notify carrying the event, heard by another connection's LISTEN): what the log costs.
// --db sqlite|postgres|both (default both). PostgreSQL: TEST_POSTGRES_URL, a fresh schema dropped after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import pino from "pino";
import type {} from "../src/domain/orders.js";
import { freshDatabase, type TestDatabase } from "../test/support/database.js";
import { openStore, type Store } from "../packages/twinspec/src/store/database.js";
import { busFor } from "../packages/twinspec/src/store/bus.js";
import { arg } from "./load.js";

const EVENTS = Number(arg("events", "2000"));
const WRITERS = Number(arg("writers", "8"));
const DB = arg("db", "both");
const silent = pino({ level: "silent" });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n: number) => n.toFixed(2);

/** Latency one event at a time, then throughput with concurrent writers; `publish` resolves once committed. */
async function measure(publish: (n: number) => Promise<void>, onDelivered: (listener: (n: number) => void) => void) {
  const sent = new Map<number, bigint>();
  const latencies: number[] = [];
  let delivered = 0;
  let waiting: (() => void) | undefined;
  onDelivered((n) => {
    const at = sent.get(n);
    if (at !== undefined) latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
    delivered++;
    waiting?.();
  });
  const until = async (count: number) => {
    while (delivered < count) await new Promise<void>((resolve) => (waiting = resolve));
  };
  for (let n = 0; n < EVENTS; n++) {
    sent.set(n, process.hrtime.bigint());
    await publish(n);
    await until(n + 1);
  }
  latencies.sort((a, b) => a - b);
  const start = process.hrtime.bigint();
  let next = EVENTS;
  const end = EVENTS * 2;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < end) await publish(next++);
    }),
  );
  await until(end);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: Math.round(EVENTS / seconds) };
}

async function durable(writer: Store, reader: Store) {
  const a = busFor(writer, silent);
  const b = reader === writer ? a : busFor(reader, silent);
  await a.ready();
  await b.ready();
  try {
    return await measure(
      (n) =>
        writer.db
          .transaction()
          .execute((trx) =>
            a.publish(
              "orderStatusChanged",
              { orderId: `ord_${n}`, customerId: "cus_bench", status: "PAID", sentAt: "" },
              trx,
            ),
          ),
      (listener) => b.subscribe("orderStatusChanged", (event) => listener(Number(event.orderId.slice(4)))),
    );
  } finally {
    await a.close();
    if (b !== a) await b.close();
  }
}

/** The bus before the event log: the event in a NOTIFY, after the change's commit, heard by another LISTEN. */
async function notifyOnly(url: string) {
  const channel = `bench_events_${process.pid}`;
  const writer = new pg.Client({ connectionString: url });
  const listener = new pg.Client({ connectionString: url });
  const pool = new pg.Pool({ connectionString: url, max: WRITERS });
  await writer.connect();
  await listener.connect();
  await listener.query(`LISTEN ${channel}`);
  try {
    return await measure(
      async (n) => {
        await pool.query("select pg_notify($1, $2)", [
          channel,
          JSON.stringify({
            t: "orderStatusChanged",
            e: { orderId: `ord_${n}`, customerId: "cus_bench", status: "PAID", sentAt: "" },
          }),
        ]);
      },
      (deliver) => listener.on("notification", (m) => deliver(Number(JSON.parse(m.payload!).e.orderId.slice(4)))),
    );
  } finally {
    await Promise.all([writer.end(), listener.end(), pool.end()]);
  }
}

const rows: string[] = [];
const row = (setup: string, r: { p50: number; p99: number; perSecond: number }) =>
  rows.push(`| ${setup} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.perSecond} |`);

if (DB === "sqlite" || DB === "both") {
  const dir = mkdtempSync(join(tmpdir(), "twinspec-bench-events-"));
  const store = await openStore(`sqlite:${join(dir, "events.db")}`);
  try {
    row("SQLite, event log (one instance)", await durable(store, store));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (DB === "postgres" || DB === "both") {
  const database: TestDatabase = await freshDatabase("postgres");
  const a = await openStore(database.url);
  const b = await openStore(database.url);
  try {
    row("PostgreSQL, event log (instance A → instance B)", await durable(a, b));
    row("PostgreSQL, NOTIFY only (the bus before the log)", await notifyOnly(database.url));
  } finally {
    await a.close();
    await b.close();
    await database.drop();
  }
}
console.log(
  `${EVENTS} events one at a time (latency), then ${EVENTS} from ${WRITERS} concurrent writers (throughput)\n`,
);
console.log("| path | p50 ms | p99 ms | events/s |\n|---|---|---|---|");
console.log(rows.join("\n"));

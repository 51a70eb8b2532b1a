// npm run bench:graphql — Q1 customer(customerId) and Q2 customers(first: 50) with orders, against Twinspec in its
// real configuration (SQLite file, metrics, limits, info logs, NODE_ENV=production), GraphQL Yoga 5 and Apollo
// Server 5 serving the same schema over the same data held in memory; one server at a time, autocannon with 50
// connections on 127.0.0.1. Targets: ours ≥ 1.5× Yoga and ≥ 1.2× Apollo requests/s on both queries.
// Options: --seconds N per measurement (default 10), --customers N (default 100), --orders N per customer (default 3);
// --db postgres compares SQLite, PostgreSQL and two PostgreSQL instances instead of the peers.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { signToken } from "../packages/twinspec/src/auth/tokens.js";
import { arg, load, peakRssMiB, startServer, type Started } from "./load.js";

const seconds = Number(arg("seconds", "10"));
const customers = Number(arg("customers", "100"));
const ordersEach = Number(arg("orders", "3"));
const dir = mkdtempSync(join(tmpdir(), "twinspec-bench-gql-"));
// Auth is on for ours, as in production (the peers ignore the header).
const SECRET = randomBytes(24).toString("hex");
const AUTH = { authorization: `Bearer ${await signToken(SECRET, { sub: "bench", scope: "admin", ttlSeconds: 3600 })}` };

const post = async (url: string, query: string, variables?: object) => {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...AUTH },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
};

async function seed(url: string) {
  for (let n = 0; n < customers; n++) {
    const { createCustomer } = await post(
      url,
      `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`,
      {
        i: { firstName: `First${n}`, lastName: `Last${n}`, email: `bench${n}@example.com` },
      },
    );
    for (let o = 0; o < ordersEach; o++) {
      await post(url, `mutation($c: ID!, $i: PlaceOrderInput!) { placeOrder(customerId: $c, input: $i) { orderId } }`, {
        c: createCustomer.customerId,
        i: { items: [{ sku: `SKU-${o}`, quantity: o + 1, unitPrice: 9.99 }] },
      });
    }
  }
  const { customers: all } = await post(
    url,
    `{ customers(first: 100) { customerId firstName lastName email createdAt updatedAt orders { orderId customerId status total createdAt updatedAt items { sku quantity unitPrice } } } }`,
  );
  return all as { customerId: string }[];
}

const Q1 = (id: string) =>
  JSON.stringify({
    query: `query($id: ID!) { customer(customerId: $id) { customerId firstName lastName } }`,
    variables: { id },
  });
const Q2 = JSON.stringify({ query: `{ customers(first: 50) { customerId firstName orders { orderId status } } }` });

// --db postgres: Q1 and Q2 on SQLite, on PostgreSQL, and on two PostgreSQL instances (bench/databases.ts), no peers.
if (arg("db", "sqlite") === "postgres") {
  const { compareDatabases, scaling } = await import("./databases.js");
  const rows = await compareDatabases(
    async (url, headers) => {
      const gql = async (query: string, variables?: object) => {
        const res = await fetch(`${url}/graphql`, {
          method: "POST",
          headers,
          body: JSON.stringify({ query, variables }),
        });
        const body = (await res.json()) as { data?: any; errors?: unknown };
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        return body.data;
      };
      for (let n = 0; n < customers; n++) {
        const { createCustomer } = await gql(
          `mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { customerId } }`,
          { i: { firstName: `First${n}`, lastName: `Last${n}`, email: `bench${n}@example.com` } },
        );
        for (let o = 0; o < ordersEach; o++) {
          await gql(`mutation($c: ID!, $i: PlaceOrderInput!) { placeOrder(customerId: $c, input: $i) { orderId } }`, {
            c: createCustomer.customerId,
            i: { items: [{ sku: `SKU-${o}`, quantity: o + 1, unitPrice: 9.99 }] },
          });
        }
      }
      const { customers: all } = await gql(`{ customers(first: 100) { customerId } }`);
      return [
        { name: "Q1", path: "/graphql", method: "POST", body: Q1(all[Math.floor(all.length / 2)].customerId) },
        { name: "Q2", path: "/graphql", method: "POST", body: Q2 },
      ];
    },
    seconds,
    Number(arg("rounds", "3")),
  );
  console.table(rows);
  scaling(rows);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

async function answer(url: string, body: string) {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...AUTH },
    body,
  });
  return res.json();
}

async function measure(name: string, server: Started, q1: string, expected?: { q1: unknown; q2: unknown }) {
  const answers = { q1: await answer(server.url, q1), q2: await answer(server.url, Q2) };
  if (expected) assert.deepEqual(answers, expected, `${name} answers differently`); // same schema, same data
  const rows = [];
  for (const [query, body] of [
    ["Q1", q1],
    ["Q2", Q2],
  ] as const) {
    const opts = {
      url: `${server.url}/graphql`,
      method: "POST",
      headers: { "content-type": "application/json", ...AUTH },
      body,
    };
    await load({ ...opts, seconds: 2 }); // warm-up: JIT, caches, connections
    const r = await load({ ...opts, seconds });
    if (r.errors + r.non2xx > 0) console.warn(`${name} ${query}: ${r.errors} errors, ${r.non2xx} non-2xx`);
    rows.push({ server: name, query, rps: r.rps, p50_ms: r.p50, p99_ms: r.p99 });
  }
  const rss = peakRssMiB(server.child.pid!);
  await server.stop();
  return { rows: rows.map((r) => ({ ...r, peak_rss_mib: rss })), answers };
}

const ours = await startServer("src/main.ts", {
  DATABASE_URL: `sqlite:${join(dir, "bench.db")}`,
  NODE_ENV: "production",
  AUTH_SECRET: SECRET,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  RATE_LIMIT_FACTOR: "1000",
});
const data = await seed(ours.url);
const dataFile = join(dir, "data.json");
writeFileSync(dataFile, JSON.stringify(data));
const q1 = Q1(data[Math.floor(data.length / 2)].customerId);
const twinspec = await measure("twinspec (SQLite)", ours, q1);
const yoga = await measure(
  "GraphQL Yoga 5 (memory)",
  await startServer("bench/servers/graphql-yoga.ts", { BENCH_DATA: dataFile, NODE_ENV: "production" }),
  q1,
  twinspec.answers,
);
const apollo = await measure(
  "Apollo Server 5 (memory)",
  await startServer("bench/servers/graphql-apollo.ts", { BENCH_DATA: dataFile, NODE_ENV: "production" }),
  q1,
  twinspec.answers,
);
rmSync(dir, { recursive: true, force: true });

console.table([...twinspec.rows, ...yoga.rows, ...apollo.rows]);
for (const [peer, target] of [
  [yoga, 1.5],
  [apollo, 1.2],
] as const) {
  for (const i of [0, 1]) {
    const ratio = twinspec.rows[i].rps / peer.rows[i].rps;
    console.log(
      `${twinspec.rows[i].query}: twinspec / ${peer.rows[i].server} = ${ratio.toFixed(2)} (target ≥ ${target}): ${ratio >= target ? "met" : "NOT met"}`,
    );
  }
}

// npm run bench:soak — a long mixed workload against a real server process (NODE_ENV=production, info logs, auth
// on): REST reads and writes, GraphQL queries and mutations (autocannon, --connections), and --cycles subscription
// connect/subscribe/disconnect cycles over graphql-ws and SSE spread over the run. Every --sample-ms it reads the
// server's /metrics: RSS, heap, open file descriptors, event-loop delay, event-bus listeners, live streams and
// WebSocket connections. Writes bench/results/soak.json (the summary), soak.csv (the samples) and soak.svg, and
// exits 1 when a figure does not stay flat after warm-up (the first --warmup share of requests: RSS window means
// within 10 %, heap and descriptors not growing, event-loop delay not worsening, listeners back to 0) or a request
// failed. Options: --requests N (default 1,000,000), --cycles N (10,000), --connections N (32), --sample-ms N (2000),
// --warmup F (0.2), --db sqlite|postgres, --out DIR.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { signToken } from "../packages/twinspec/src/auth/tokens.js";
import { freshDatabase } from "../test/support/database.js";
import { arg, startServer } from "./load.js";
import { svgChart } from "./plot.js";

const TOTAL = Number(arg("requests", "1000000"));
const CYCLES = Number(arg("cycles", "10000"));
const CONNECTIONS = Number(arg("connections", "32"));
const SAMPLE_MS = Number(arg("sample-ms", "2000"));
const WARMUP = Number(arg("warmup", "0.2"));
const DB = arg("db", "sqlite");
const OUT = arg("out", "bench/results");
const SUB_CONCURRENCY = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

// --- the server ------------------------------------------------------------------------------------------------
const SECRET = randomBytes(24).toString("hex");
const token = await signToken(SECRET, { sub: "soak", scope: "admin", ttlSeconds: 24 * 3600 });
const auth = { authorization: `Bearer ${token}` };
const json = { ...auth, "content-type": "application/json" };
const dir = mkdtempSync(join(tmpdir(), "twinspec-soak-"));
const database =
  DB === "postgres" ? await freshDatabase("postgres") : { url: `sqlite:${join(dir, "soak.db")}`, drop: async () => {} };
const METRICS_TOKEN = "soak-metrics-token-0123456789";
const server = await startServer("src/main.ts", {
  DATABASE_URL: database.url,
  NODE_ENV: "production",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  AUTH_SECRET: SECRET,
  // The limiter runs but never refuses the soak's one caller.
  RATE_LIMIT_FACTOR: "1000",
  // In production /metrics is closed until a token guards it.
  METRICS_TOKEN: METRICS_TOKEN,
});
const base = server.url;
const n = (v: number) => v.toLocaleString("en-US");
console.log(
  `soak: ${n(TOTAL)} requests, ${n(CYCLES)} subscription cycles, ${CONNECTIONS} connections, ${DB}, server pid ${server.child.pid}`,
);

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: json,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

// Two sets of customers: `readers` keep 3 orders each (reads of a fixed size), `targets` receive the new orders
// and status changes the workload makes (the events subscribers hear).
const item = { sku: "SOAK-1", quantity: 1, unitPrice: 5 };
const readers: string[] = [];
const targets: string[] = [];
for (let i = 0; i < 100; i++) {
  const c = await api("POST", "/customers", {
    firstName: "Reader",
    lastName: `R${i}`,
    email: `reader-${i}@soak.example`,
  });
  for (let j = 0; j < 3; j++) await api("POST", `/customers/${c.customerId}/orders`, { items: [item] });
  readers.push(c.customerId);
}
for (let i = 0; i < 50; i++) {
  targets.push(
    (await api("POST", "/customers", { firstName: "Target", lastName: `T${i}`, email: `target-${i}@soak.example` }))
      .customerId,
  );
}

// --- the workload: one sequence of 20 requests per connection, repeated: 4 writes (20 %), 16 reads -----------------------------------------
type Ctx = { reader?: string; target?: string; created?: string; order?: string };
/** autocannon's request step (the package has no types) */
interface Step {
  method: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: Step, context: Ctx) => Step;
  onResponse?: (status: number, body: string, context: Ctx) => void;
}
interface Result {
  requests: { total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const gqlBody = (query: string, variables: object) => JSON.stringify({ query, variables });
let unique = 0;
let graphqlErrors = 0;
let unexpected = 0;
const expectOk = (status: number, body: string) => {
  if (status >= 400) unexpected++;
  else if (body.startsWith('{"errors"') || body.includes('"errors":[')) graphqlErrors++;
};
const get = (path: (c: Ctx) => string): Step => ({ method: "GET", setupRequest: (r, c) => ({ ...r, path: path(c) }) });
const graphql = (query: string, variables: (c: Ctx) => object): Step => ({
  method: "POST",
  path: "/graphql",
  headers: json,
  setupRequest: (r, c) => ({ ...r, body: gqlBody(query, variables(c)) }),
});
/** a REST write; `keep` stores the new resource's id for the steps after it */
const write = (
  method: string,
  path: (c: Ctx) => string,
  body: (c: Ctx) => unknown,
  keep?: (c: Ctx, created: any) => void,
  type = "application/json",
): Step => ({
  method,
  headers: { ...auth, "content-type": type },
  setupRequest: (r, c) => ({ ...r, path: path(c), body: JSON.stringify(body(c)) }),
  onResponse: (status, text, c) => {
    if (keep && status === 201) keep(c, JSON.parse(text));
    expectOk(status, text);
  },
});
const CUSTOMER = `query($c: ID!) { customer(customerId: $c) { customerId firstName lastName } }`;
const steps: Step[] = [
  get((c) => ((c.reader = pick(readers)), (c.target = pick(targets)), `/customers/${c.reader}`)),
  graphql(CUSTOMER, (c) => ({ c: c.reader })),
  get((c) => `/customers/${c.reader}/orders?limit=10`),
  write(
    "POST",
    () => "/customers",
    () => ({ firstName: "Soak", lastName: "Write", email: `w${unique++}-${process.pid}@soak.example` }),
    (c, created) => (c.created = created.customerId),
  ),
  get((c) => `/customers/${c.created}`),
  graphql(`query($c: ID!) { customer(customerId: $c) { email orders { orderId status total } } }`, (c) => ({
    c: c.reader,
  })),
  get(() => "/customers?limit=20"),
  // a new order for a target customer, then two status changes (REST, GraphQL): events for the subscribers
  write(
    "POST",
    (c) => `/customers/${c.target}/orders`,
    () => ({ items: [item] }),
    (c, created) => (c.order = created.orderId),
  ),
  get((c) => `/orders/${c.order}`),
  write(
    "PATCH",
    (c) => `/orders/${c.order}`,
    () => ({ status: "PAID" }),
    undefined,
    "application/merge-patch+json",
  ),
  graphql(`query($n: Int) { customers(first: $n) { customerId firstName } }`, () => ({ n: 10 })),
  get((c) => `/customers/${c.target}`),
  graphql(`mutation($o: ID!) { updateOrderStatus(orderId: $o, status: SHIPPED) { status } }`, (c) => ({ o: c.order })),
  graphql(`query($o: ID!) { order(orderId: $o) { status total customer { email } } }`, (c) => ({ o: c.order })),
  get((c) => `/orders/${c.order}`),
  get((c) => `/customers/${c.reader}`),
  graphql(CUSTOMER, (c) => ({ c: c.target })),
  get((c) => `/customers/${c.created}`),
  get(() => "/customers?limit=5"),
  graphql(`query($c: ID!) { customer(customerId: $c) { email } }`, (c) => ({ c: c.created })),
];
const sequence = steps.map((r): Step => ({ headers: auth, onResponse: expectOk, ...r }));

let answered = 0;
const load = autocannon({ url: base, connections: CONNECTIONS, amount: TOTAL, requests: sequence, timeout: 30 });
load.on("response", () => answered++);
const loadDone = new Promise<Result>((resolve, reject) => load.once("done", resolve).once("error", reject));

// --- subscription cycles, paced by the workload's progress -----------------------------------------------------
const SUBSCRIBE = `subscription($c: ID!) { orderStatusChanged(customerId: $c) { orderId status } }`;
const subs = { done: 0, failed: 0, heardEvent: 0, sse: 0 };
async function wsCycle() {
  const client = createClient({
    url: `${base.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: auth,
    onNonLazyError: () => {},
  });
  try {
    const iterator = client.iterate({ query: SUBSCRIBE, variables: { c: pick(targets) } });
    const first = iterator.next();
    const outcome = await Promise.race([
      first.then((r) => (r.done ? "ended" : "event")),
      sleep(50).then(() => "waited"),
    ]);
    if (outcome === "event") subs.heardEvent++;
    if (outcome === "ended") throw new Error("subscription ended early");
    await iterator.return?.();
  } finally {
    await client.dispose();
  }
}
async function sseCycle() {
  const abort = new AbortController();
  const res = await fetch(`${base}/graphql/stream`, {
    method: "POST",
    signal: abort.signal,
    headers: { ...json, accept: "text/event-stream" },
    body: gqlBody(SUBSCRIBE, { c: pick(targets) }),
  });
  if (res.status !== 200) throw new Error(`SSE ${res.status}`);
  const reader = res.body!.getReader();
  const outcome = await Promise.race([reader.read().then(() => "event"), sleep(50).then(() => "waited")]);
  if (outcome === "event") subs.heardEvent++;
  abort.abort();
  await reader.cancel().catch(() => {});
  subs.sse++;
}
let nextCycle = 0;
const cycling = Promise.all(
  Array.from({ length: SUB_CONCURRENCY }, async () => {
    for (let i = nextCycle++; i < CYCLES; i = nextCycle++) {
      while (answered / TOTAL < i / CYCLES && answered < TOTAL) await sleep(20);
      try {
        await (i % 5 === 4 ? sseCycle() : wsCycle());
        subs.done++;
      } catch (error) {
        if (subs.failed++ < 5) console.error("subscription cycle failed:", (error as Error).message);
      }
    }
  }),
);

// --- sampling ----------------------------------------------------------------------------------------------------
interface Sample {
  t: number;
  requests: number;
  cycles: number;
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  openFds: number;
  loopP99Ms: number;
  loopMeanMs: number;
  busListeners: number;
  liveStreams: number;
  wsConnections: number;
}
async function scrape(): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) values.set(m[1], (values.get(m[1]) ?? 0) + Number(m[3]));
  }
  return values;
}
const started = Date.now();
const samples: Sample[] = [];
async function sample() {
  const m = await scrape();
  const mib = (name: string) => Math.round(((m.get(name) ?? NaN) / 2 ** 20) * 10) / 10;
  samples.push({
    t: Math.round((Date.now() - started) / 100) / 10,
    requests: answered,
    cycles: subs.done,
    rssMiB: mib("process_resident_memory_bytes"),
    heapUsedMiB: mib("nodejs_heap_size_used_bytes"),
    heapTotalMiB: mib("nodejs_heap_size_total_bytes"),
    openFds: m.get("process_open_fds") ?? NaN,
    loopP99Ms: Math.round((m.get("nodejs_eventloop_lag_p99_seconds") ?? NaN) * 10_000) / 10,
    loopMeanMs: Math.round((m.get("nodejs_eventloop_lag_mean_seconds") ?? NaN) * 10_000) / 10,
    busListeners: m.get("event_bus_listeners") ?? NaN,
    liveStreams: m.get("graphql_live_streams") ?? NaN,
    wsConnections: m.get("graphql_ws_connections") ?? NaN,
  });
  const s = samples.at(-1)!;
  if (samples.length % 15 === 1) {
    console.log(
      `  ${s.t}s: ${n(s.requests)} requests, ${s.cycles} cycles, RSS ${s.rssMiB} MiB, heap ${s.heapUsedMiB} MiB, fds ${s.openFds}, loop p99 ${s.loopP99Ms} ms`,
    );
  }
}
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    await sample().catch((error) => console.error("sample failed:", (error as Error).message));
    await sleep(SAMPLE_MS);
  }
})();

const result = await loadDone;
await cycling;
await sleep(1_000); // let the last disconnects reach the server
sampling = false;
await sampler;
await sample(); // the state at rest
const seconds = (Date.now() - started) / 1000;
await server.stop();
await database.drop();
rmSync(dir, { recursive: true, force: true });

// --- verdict -----------------------------------------------------------------------------------------------------
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const running = samples.slice(0, -1);
const steady = running.filter((s) => s.requests >= WARMUP * TOTAL);
const quarter = Math.max(1, Math.floor(steady.length / 4));
const [first, last] = [steady.slice(0, quarter), steady.slice(-quarter)];
const of = (xs: Sample[], key: keyof Sample) => xs.map((s) => s[key]).filter(Number.isFinite);
const rss = of(steady, "rssMiB");
// RSS moves with V8 growing and shrinking its heap between collections; a leak is a trend. Flat = the means of
// eight consecutive windows after warm-up stay within 10 % of each other.
const windows = Array.from({ length: 8 }, (_, i) =>
  steady.slice(Math.floor((i * steady.length) / 8), Math.floor(((i + 1) * steady.length) / 8)),
);
const rssMeans = windows.filter((w) => w.length > 0).map((w) => of(w, "rssMiB").reduce((a, b) => a + b, 0) / w.length);
const rssRatio = Math.max(...rssMeans) / Math.min(...rssMeans);
/** median of the first and of the last quarter after warm-up */
const quarters = (key: keyof Sample) => ({
  firstQuarterMedian: median(of(first, key)),
  lastQuarterMedian: median(of(last, key)),
});
const [heap, fds, loop] = [quarters("heapUsedMiB"), quarters("openFds"), quarters("loopP99Ms")];
const rest = samples.at(-1)!;
const leftOpen = rest.busListeners + rest.liveStreams + rest.wsConnections;
const mostListeners = Math.max(...of(running, "busListeners"));
const failures = result.errors + result.timeouts + result.non2xx + unexpected;
const checks = [
  { name: "RSS after warm-up: window means within 10% (max/min)", value: rssRatio, ok: rssRatio <= 1.1 },
  {
    name: "heap used: last quarter median ≤ 1.1 × first quarter median",
    value: heap.lastQuarterMedian / heap.firstQuarterMedian,
    ok: heap.lastQuarterMedian <= 1.1 * heap.firstQuarterMedian,
  },
  {
    name: "open fds: last quarter median ≤ first quarter median + 10",
    value: fds.lastQuarterMedian - fds.firstQuarterMedian,
    ok: fds.lastQuarterMedian <= fds.firstQuarterMedian + 10,
  },
  {
    name: "event-loop p99: last quarter median ≤ 2 × first + 5 ms",
    value: loop.lastQuarterMedian,
    ok: loop.lastQuarterMedian <= 2 * loop.firstQuarterMedian + 5,
  },
  { name: "listeners, streams, WebSockets back to 0 at rest", value: leftOpen, ok: leftOpen === 0 },
  { name: "listeners never above the subscribers at once", value: mostListeners, ok: mostListeners <= SUB_CONCURRENCY },
  { name: "every request answered 2xx/3xx (no errors, timeouts)", value: failures, ok: failures === 0 },
  { name: "no GraphQL errors", value: graphqlErrors, ok: graphqlErrors === 0 },
  {
    name: `${CYCLES} subscription cycles, none failed`,
    value: subs.failed,
    ok: subs.done === CYCLES && subs.failed === 0,
  },
];
const summary = {
  date: new Date().toISOString(),
  database: DB,
  requests: result.requests.total,
  seconds: Math.round(seconds),
  requestsPerSecond: Math.round(result.requests.total / seconds),
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  connections: CONNECTIONS,
  subscriptions: { cycles: subs.done, failed: subs.failed, overSse: subs.sse, heardAnEvent: subs.heardEvent },
  errors: { transport: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, graphql: graphqlErrors },
  warmupRequests: Math.round(WARMUP * TOTAL),
  steady: {
    rssMiB: { min: Math.min(...rss), max: Math.max(...rss), windowMeans: rssMeans.map((m) => Math.round(m * 10) / 10) },
    heapUsedMiB: heap,
    openFds: fds,
    loopP99Ms: { ...loop, max: Math.max(...of(steady, "loopP99Ms")) },
  },
  atRest: rest,
  checks,
  passed: checks.every((c) => c.ok),
};

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "soak.json"), JSON.stringify(summary, null, 1) + "\n");
const keys = Object.keys(samples[0]) as (keyof Sample)[];
writeFileSync(
  join(OUT, "soak.csv"),
  [keys.join(","), ...samples.map((s) => keys.map((k) => s[k]).join(","))].join("\n") + "\n",
);
writeFileSync(
  join(OUT, "soak.svg"),
  svgChart({
    title: `Soak: ${n(result.requests.total)} requests + ${n(subs.done)} subscription cycles in ${Math.round(seconds)} s (${DB})`,
    x: samples.map((s) => s.requests),
    xLabel: "requests answered",
    shadeUntil: WARMUP * TOTAL,
    series: [
      { title: "Resident set size", unit: "MiB", values: samples.map((s) => s.rssMiB) },
      {
        title: "V8 heap used",
        unit: "MiB",
        values: samples.map((s) => s.heapUsedMiB),
        also: { label: "heap total", values: samples.map((s) => s.heapTotalMiB) },
      },
      { title: "Open file descriptors", unit: "count", values: samples.map((s) => s.openFds) },
      {
        title: "Event-loop delay p99",
        unit: "ms",
        values: samples.map((s) => s.loopP99Ms),
        also: { label: "mean", values: samples.map((s) => s.loopMeanMs) },
      },
      {
        title: "Event-bus listeners",
        unit: "count",
        values: samples.map((s) => s.busListeners),
        also: { label: "WebSocket connections", values: samples.map((s) => s.wsConnections) },
      },
    ],
  }),
);
console.table(checks.map((c) => ({ check: c.name, value: Math.round(c.value * 1000) / 1000, ok: c.ok })));
console.log(JSON.stringify({ ...summary, checks: undefined, atRest: undefined }, null, 1));
console.log(`written: ${OUT}/soak.json, soak.csv, soak.svg — ${summary.passed ? "flat" : "NOT flat"}`);
process.exit(summary.passed ? 0 : 1);

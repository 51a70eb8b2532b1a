// One budget shared by every instance on PostgreSQL: a caller who spent its budget through one instance is refused by
// the other, within the documented precision (what the instances admit between two syncs, RATE_LIMIT_SYNC_MS); another
// caller's budget is untouched. Prints the figures.
import assert from "node:assert/strict";
import { token } from "../support/auth.js";
import { call } from "../support/server.js";
import { onPostgres, startInstances, type Instances } from "../support/instances.js";
import { clearOfWindowEnd } from "../rate-limit/helpers.js";

const LIMIT = 30;
const SYNC_MS = 50;

/**
 * The documented precision: beyond its budget a caller may get what the instances admit between two syncs — at the
 * rate it was sending (`sent` in `ms`), one sync interval (and a statement's round trip) of requests —, and on an
 * instance where it is new in the window, what it sends there before that instance's first statement answers
 * (counted here as one request each: these clients wait for each answer, and the first statements are quick).
 */
const precision = (sent: number, ms: number, instances = 2) => Math.ceil((sent / ms) * (SYNC_MS + 20)) + instances;

(onPostgres ? describe : describe.skip)("two instances, one database: one rate-limit budget", function () {
  this.timeout(90_000);
  let group: Instances;
  let urls: string[];
  before(async () => {
    group = await startInstances(2, {
      RATE_LIMITS: `default=${LIMIT}/3600`,
      RATE_LIMIT_FACTOR: "1",
      RATE_LIMIT_SYNC_MS: String(SYNC_MS),
    });
    urls = group.servers.map((s) => s.url);
    await clearOfWindowEnd(60);
  });
  after(() => group.stop());

  const send = async (url: string, sub: string) =>
    (await call(`${url}/customers?limit=1`, { headers: { authorization: `Bearer ${await token(sub, "admin")}` } }))
      .status;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("a budget spent through one instance is spent on the other, from its first statement's answer on", async () => {
    const through0: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) through0.push(await send(urls[0], "one-budget"));
    assert.deepEqual(through0, [...Array(LIMIT).fill(200), 429, 429, 429]);
    await sleep(3 * SYNC_MS); // instance 1 has recorded its counts
    // New to instance 2: it admits until its first statement answers (one round trip), then refuses for good.
    const through1: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 20 && through1.at(-1) !== 429; i++) {
      through1.push(await send(urls[1], "one-budget"));
      await sleep(25);
    }
    const refusedAfter = Date.now() - started;
    for (let i = 0; i < 5; i++) through1.push(await send(urls[1], "one-budget"));
    console.log(
      `      instance 2 after instance 1 spent the budget: ${through1.join(" ")} (first 429 after ${refusedAfter} ms)`,
    );
    assert.equal(through1.at(-6), 429, "instance 2 refuses within 20 requests (alone it would admit 30)");
    assert.deepEqual(through1.slice(-5), [429, 429, 429, 429, 429]);
    // Another caller's budget is whole on both.
    assert.deepEqual([await send(urls[1], "other-caller"), await send(urls[0], "other-caller")], [200, 200]);
  });

  it("requests alternating between the instances: the budget holds within what one sync interval admits", async () => {
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 2 * LIMIT; i++) statuses.push(await send(urls[i % 2], "alternating"));
    const ms = Date.now() - started;
    await sleep(3 * SYNC_MS); // both have synced
    const after = [await send(urls[0], "alternating"), await send(urls[1], "alternating")];
    const admitted = statuses.filter((s) => s === 200).length;
    const bound = LIMIT + precision(2 * LIMIT, ms);
    console.log(
      `      alternating: ${admitted} admitted of a budget of ${LIMIT} (${2 * LIMIT} sent one after another over 2 instances in ${ms} ms; documented bound ${bound})`,
    );
    assert.ok(admitted >= LIMIT && admitted <= bound, `${admitted}`);
    assert.deepEqual(after, [429, 429]);
  });

  it("a concurrent flood over both instances: admitted within the documented precision", async () => {
    const sub = "concurrent";
    const t = await token(sub, "admin");
    let admitted = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; i < 15; i++) {
          const res = await call(`${urls[worker % 2]}/customers?limit=1`, {
            headers: { authorization: `Bearer ${t}` },
          });
          if (res.status === 200) admitted++;
          else assert.equal(res.status, 429);
        }
      }),
    );
    const ms = Date.now() - started;
    const bound = LIMIT + precision(120, ms);
    console.log(
      `      concurrent: ${admitted} admitted of a budget of ${LIMIT} (120 sent by 8 clients over 2 instances in ${ms} ms; documented bound ${bound})`,
    );
    assert.ok(admitted >= LIMIT && admitted <= bound, `${admitted}`);
  });
});

// The durable job queue: what it has in hand (waiting or running); with several workers, a job whose worker died is
// taken over after its lease; on PostgreSQL a claim skips rows other workers hold (SKIP LOCKED) and a worker whose
// lease was taken over cannot also complete the job (its transaction rolls back).
import assert from "node:assert/strict";
import pino from "pino";
import type { Store } from "../../packages/twinspec/src/store/database.js";
import { JobQueue, type JobHandler } from "../../packages/twinspec/src/store/job-queue.js";
import { testDatabaseKind } from "../support/database.js";
import { storesPerTest } from "../support/queues.js";
import { sleep, until } from "../support/wait.js";

const silent = pino({ level: "silent" });
const postgres = testDatabaseKind() === "postgres";

describe(`job queue on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  const { open, queues } = storesPerTest();
  /** A PENDING job, as the domain would record one. */
  const enqueue = async (store: Store, kind: string) => {
    const at = new Date().toISOString();
    const jobId = `job_${Math.random().toString(36).slice(2)}`;
    await store.db
      .insertInto("jobs")
      .values({
        job_id: jobId,
        kind,
        status: "PENDING",
        payload: "{}",
        result: null,
        error: null,
        attempts: 0,
        version: 1,
        created_at: at,
        updated_at: at,
        lease_until: null,
      })
      .execute();
    return { jobId };
  };
  const queueOf = (store: Store, handler: JobHandler, options: ConstructorParameters<typeof JobQueue>[2]) => {
    const queue = new JobQueue(store, silent, options);
    queue.register("probe", handler);
    queues.push(queue);
    return queue;
  };
  const count = async (store: Store, status?: string) => {
    let q = store.db.selectFrom("jobs").select((eb) => eb.fn.countAll<number>().as("n"));
    if (status) q = q.where("status", "=", status);
    return (await q.executeTakeFirstOrThrow()).n;
  };

  it("a job whose worker died (RUNNING, lease held) waits for the lease to run out, then runs once", async () => {
    const store = await open();
    const ran: string[] = [];
    const handler: JobHandler = async (_trx, jobId) => (ran.push(jobId), { result: { ok: true } });
    const job = await enqueue(store, "probe");
    const leaseUntil = new Date(Date.now() + 600).toISOString();
    await store.db
      .updateTable("jobs")
      .set({ status: "RUNNING", attempts: 1, version: 2, lease_until: leaseUntil })
      .where("job_id", "=", job.jobId)
      .execute();
    const queue = queueOf(store, handler, { pollMs: 20, leaseMs: 1_000 });
    queue.start();
    await sleep(300);
    assert.deepEqual(ran, [], "not taken while the dead worker's lease holds");
    await until(async () => (await count(store, "SUCCEEDED")) === 1, "the job to be taken over");
    assert.deepEqual(ran, [job.jobId]);
    const row = await store.db.selectFrom("jobs").selectAll().where("job_id", "=", job.jobId).executeTakeFirstOrThrow();
    assert.equal(row.attempts, 2);
  });

  it("inHand counts the jobs that wait or run, and none once they ended, succeeded or failed", async () => {
    const store = await open();
    const handler: JobHandler = async (_trx, jobId) => {
      if (jobId === failing.jobId) throw new Error("fails for good");
      return { result: {} };
    };
    const queue = queueOf(store, handler, { pollMs: 20, maxAttempts: 1 });
    assert.equal(await queue.inHand(), 0);
    const running = await enqueue(store, "probe");
    const failing = await enqueue(store, "probe");
    await enqueue(store, "probe");
    // A job another worker holds, as the first test leaves one: its lease ran out, so this queue takes it over.
    await store.db
      .updateTable("jobs")
      .set({ status: "RUNNING", attempts: 0, lease_until: new Date(Date.now() - 1).toISOString() })
      .where("job_id", "=", running.jobId)
      .execute();
    assert.equal(await queue.inHand(), 3, "one RUNNING, two PENDING");
    queue.start();
    await until(
      async () => (await count(store, "SUCCEEDED")) === 2 && (await count(store, "FAILED")) === 1,
      "two jobs to succeed and one to fail",
    );
    assert.equal(await queue.inHand(), 0);
  });

  (postgres ? it : it.skip)(
    "PostgreSQL: a claim skips the job another worker is locking instead of waiting for it",
    async () => {
      const store = await open();
      const ran: string[] = [];
      const handler: JobHandler = async (_trx, jobId) => (ran.push(jobId), { result: {} });
      const older = await enqueue(store, "probe");
      await sleep(5);
      const newer = await enqueue(store, "probe");
      const queue = queueOf(store, handler, { pollMs: 20 });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const holding = store.db.transaction().execute(async (trx) => {
        await trx.selectFrom("jobs").select("job_id").where("job_id", "=", older.jobId).forUpdate().execute();
        queue.start();
        await held;
      });
      await until(async () => ran.length === 1, "the unlocked job to run", 3_000);
      assert.deepEqual(ran, [newer.jobId]);
      release();
      await holding;
      await until(async () => ran.length === 2, "the other job once its lock is gone");
      assert.deepEqual(ran, [newer.jobId, older.jobId]);
    },
  );

  (postgres ? it : it.skip)(
    "PostgreSQL: a worker that outlived its lease cannot complete the job; the one that took over does",
    async () => {
      const slowStore = await open();
      const fastStore = await open();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const inserts =
        (who: string): JobHandler =>
        async (trx, jobId) => {
          await trx
            .insertInto("orders")
            .values({
              order_id: `ord_${jobId}`,
              customer_id: who,
              status: "PENDING",
              items: "[]",
              total: 0,
              version: 1,
              created_at: "x",
              updated_at: "x",
              deleted_at: null,
            })
            .execute();
          if (who === "slow") await gate;
          return { result: { by: who } };
        };
      const job = await enqueue(slowStore, "probe");
      const slow = queueOf(slowStore, inserts("slow"), { pollMs: 20, leaseMs: 300 });
      slow.start();
      await until(async () => (await count(slowStore, "RUNNING")) === 1, "the slow worker to claim");
      await sleep(350); // its lease runs out while it still works
      const fast = queueOf(fastStore, inserts("fast"), { pollMs: 20, leaseMs: 5_000 });
      fast.start();
      // The fast worker's insert waits on the slow one's uncommitted row; letting the slow one finish decides it.
      await sleep(200);
      release();
      await until(async () => (await count(fastStore, "SUCCEEDED")) === 1, "the job to succeed");
      const row = await fastStore.db
        .selectFrom("jobs")
        .selectAll()
        .where("job_id", "=", job.jobId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.result!), { by: "fast" });
      const orders = await fastStore.db.selectFrom("orders").select("customer_id").execute();
      assert.deepEqual(orders, [{ customer_id: "fast" }]);
    },
  );
});

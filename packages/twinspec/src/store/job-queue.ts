// A durable job queue in the jobs table: claim with a lease, run the handler in one transaction with the
// job's completion, retry after the lease expires if a worker died. Safe with several workers, in one process
// or many: a claim is one conditional UPDATE (on PostgreSQL picking its row with FOR UPDATE SKIP LOCKED, so
// instances claiming at once take different jobs instead of queueing on the same row), and completion is fenced
// by the version the claim set, so a worker whose lease ran out and was taken over cannot also complete the job.
import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import { isPostgres } from "./dialect.js";
import type { Database } from "./schema.js";
import { transaction } from "./transactions.js";
import { PROBLEMS } from "../runtime/problems.js";
import { unavailable } from "./unavailable.js";

/**
 * The work behind one kind of job. It runs in one transaction with the job's completion: its writes and the job's
 * SUCCEEDED commit together. Throwing retries it (after the lease, up to `maxAttempts`); JobFailed fails it at once.
 *
 * @param trx - the transaction to do the work in
 * @param jobId - the job's id
 * @param payload - the job's payload, as JSON.parse reads back what was stored
 * @returns `result`: stored as the job's result (JSON); `after`: runs once the transaction committed (e.g. publish an event)
 */
export type JobHandler = (
  trx: Transaction<Database>,
  jobId: string,
  payload: any,
) => Promise<{ result: object; after?: () => Promise<void> }>;

/** Thrown by a handler when the job can never succeed (its input is gone): it fails at once, with this title. */
export class JobFailed extends Error {
  /** @param detail - the failure's detail (the job's `error.detail`) */
  constructor(
    /** the failure's title (the job's `error.title`) */
    readonly title: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** The job queue's timing and retries (JOB_LEASE_MS, JOB_POLL_MS through `serve`); every field is optional. */
export interface QueueOptions {
  /** how long a claim lasts before another worker may take the job over, in ms (default 30 000) */
  leaseMs?: number;
  /** how often the queue looks for jobs, in ms (default 500); `kick` looks at once */
  pollMs?: number;
  /** runs of a job before a failure is final (default 5); a database outage does not use them up */
  maxAttempts?: number;
}

/**
 * The durable job queue in the `jobs` table: a domain module inserts a PENDING row (in the transaction of the
 * change that asks for the work), calls `kick`, and registers the kind's handler; any instance's worker claims the
 * job with a lease, runs the handler, and marks it SUCCEEDED or, once final, FAILED. `buildApp` makes one and hands
 * it to the services (`deps.queue`).
 */
export class JobQueue {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** the last pass failed: further failures are not logged again until one succeeds (an outage is one line) */
  private failing = false;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;

  private readonly handlers: Record<string, JobHandler> = {};
  private started = false;

  private readonly db: Kysely<Database>;

  /**
   * @param store - the store whose `jobs` table holds the jobs
   * @param log - where failed jobs and failed passes are logged
   * @param options - lease, poll interval and attempts (`QueueOptions`); default none
   */
  constructor(
    store: { db: Kysely<Database> },
    private readonly log: Logger,
    options: QueueOptions = {},
  ) {
    this.db = store.db;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  /**
   * The work behind jobs of `kind` (domain modules register theirs when their service is built); a later one replaces it.
   *
   * @param kind - the jobs' `kind` column
   * @param handler - runs each such job
   */
  register(kind: string, handler: JobHandler) {
    this.handlers[kind] = handler;
  }

  /** Starts claiming; resolves once the first pass is over (a failed pass is logged and retried, never thrown). */
  start(): Promise<void> {
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
    return this.running ?? Promise.resolve();
  }

  /** Work now (new jobs call this); overlapping kicks coalesce into one more pass. Nothing before start(). */
  kick() {
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => {
        if (this.failing) this.log.info("job queue working again");
        this.failing = false;
      })
      .catch((error) => {
        if (!this.failing) this.log.error({ err: error }, "job queue pass failed; retrying every poll");
        this.failing = true;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops claiming; waits for the job in hand. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** How many jobs of the `jobs` table, any instance's, wait or run: none once every job asked for has ended. */
  async inHand(): Promise<number> {
    const { count } = await this.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("status", "in", ["PENDING", "RUNNING"])
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Starts claiming again after stop(). */
  resume() {
    if (!this.stopped) return;
    this.stopped = false;
    void this.start();
  }

  private async drain() {
    while (!this.stopped) {
      const job = await this.claim();
      if (!job) return;
      await this.run(job);
    }
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const at = new Date();
    const now = at.toISOString();
    const claimable = (qb: any) =>
      qb.where((eb: any) =>
        eb.or([eb("status", "=", "PENDING"), eb.and([eb("status", "=", "RUNNING"), eb("lease_until", "<", now)])]),
      );
    const take = this.db.updateTable("jobs").set((eb) => ({
      status: "RUNNING",
      lease_until: new Date(at.getTime() + this.leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
      version: eb("version", "+", 1),
      updated_at: now,
    }));
    if (isPostgres(this.db)) {
      // One statement: the oldest claimable job that no other worker is claiming at this moment.
      const next = claimable(this.db.selectFrom("jobs").select("job_id"))
        .orderBy("created_at")
        .limit(1)
        .forUpdate()
        .skipLocked();
      return await take.where("job_id", "=", next).returningAll().executeTakeFirst();
    }
    // SQLite has one writer at a time: the conditional UPDATE alone decides who gets the job.
    const next = await claimable(this.db.selectFrom("jobs").select("job_id"))
      .orderBy("created_at")
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    return (await claimable(take.where("job_id", "=", next.job_id))
      .returningAll()
      .executeTakeFirst()) as ClaimedJob | undefined;
  }

  private async run(job: ClaimedJob) {
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const outcome = await transaction(this.db, async (trx) => {
        const done = await handler(trx, job.job_id, JSON.parse(job.payload));
        await this.finish(trx, job, "SUCCEEDED", { result: JSON.stringify(done.result) });
        return done;
      });
      await outcome.after?.();
    } catch (error) {
      if (error instanceof LeaseLost) {
        this.log.warn({ jobId: job.job_id }, error.message);
        return;
      }
      // A failure the handler calls final (its input is gone) is final; anything else is retried until maxAttempts —
      // except the database being unavailable, which says nothing about the job: it is retried until it runs.
      const final = error instanceof JobFailed || (job.attempts >= this.maxAttempts && !unavailable(error));
      this.log.warn({ err: error, jobId: job.job_id, attempts: job.attempts, final }, "job failed");
      if (final) {
        const problem = {
          title: error instanceof JobFailed ? error.title : PROBLEMS.job_failed.title,
          detail: (error as Error).message,
        };
        await this.finish(this.db, job, "FAILED", { error: JSON.stringify(problem) }).catch((e) => {
          if (!(e instanceof LeaseLost)) throw e;
        });
      }
    }
  }

  /** Completes the job if this worker still holds it (its claim's version); else throws, rolling back its work. */
  private async finish(
    db: Kysely<Database>,
    job: ClaimedJob,
    status: string,
    fields: { result?: string; error?: string },
  ) {
    const done = await db
      .updateTable("jobs")
      .set({ status, lease_until: null, version: job.version + 1, updated_at: new Date().toISOString(), ...fields })
      .where("job_id", "=", job.job_id)
      .where("version", "=", job.version)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new LeaseLost(job.job_id);
  }
}

type ClaimedJob = { job_id: string; kind: string; payload: string; attempts: number; version: number };

/** The lease ran out and another worker took the job over: this worker's result must not count. */
class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`lost the lease on job ${jobId} to another worker`);
  }
}

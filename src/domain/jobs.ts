// Jobs: durable records of asynchronous work, the status monitor behind 202 responses. The table is the job
// queue's (src/store/job-queue.ts); every job so far is a customer's checkout.
import type { Kysely, Selectable } from "kysely";
import type { Database, JobsTable } from "twinspec/schema";
import { type ServiceDeps, NotFoundError, now } from "twinspec";
import { newId } from "../../generated/contract.js";
import type { JobStatus } from "../../generated/models.js";

export interface Job {
  jobId: string;
  kind: string;
  status: JobStatus;
  /** whose work it is */
  customerId: string;
  result: { orderId: string } | null;
  error: { title: string; detail?: string } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const customerOf = (payload: string) => (JSON.parse(payload) as { customerId: string }).customerId;

const toJob = (row: Selectable<JobsTable>): Job => ({
  jobId: row.job_id,
  kind: row.kind,
  status: row.status as JobStatus,
  customerId: customerOf(row.payload),
  result: row.result ? JSON.parse(row.result) : null,
  error: row.error ? JSON.parse(row.error) : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** Records a PENDING job of a customer inside the caller's transaction, so accepting work and recording it are one commit. */
export async function enqueueJob(
  db: Kysely<Database>,
  kind: string,
  payload: { customerId: string } & Record<string, unknown>,
): Promise<Job> {
  const at = now();
  const row = {
    job_id: newId("jobs"),
    kind,
    status: "PENDING",
    payload: JSON.stringify(payload),
    result: null,
    error: null,
    attempts: 0,
    version: 1,
    created_at: at,
    updated_at: at,
    lease_until: null,
  };
  await db.insertInto("jobs").values(row).execute();
  return toJob(row);
}

export class JobService {
  private readonly db: Kysely<Database>;

  constructor({ store }: ServiceDeps) {
    this.db = store.db;
  }

  async get(jobId: string): Promise<Job> {
    const row = await this.db.selectFrom("jobs").selectAll().where("job_id", "=", jobId).executeTakeFirst();
    if (!row) throw new NotFoundError("job", jobId);
    return toJob(row);
  }

  /** The customer whose job it is (undefined: no such job). */
  async ownerOf(jobId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom("jobs").select("payload").where("job_id", "=", jobId).executeTakeFirst();
    return row ? customerOf(row.payload) : undefined;
  }
}

export function createService(deps: ServiceDeps): JobService {
  return new JobService(deps);
}

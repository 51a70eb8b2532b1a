// Jobs: durable records of asynchronous work, the status monitor behind 202 responses.
import type { Kysely, Selectable } from "kysely";
import type { Store } from "../store/database.js";
import type { Database, JobsTable } from "../store/schema.js";
import { NotFoundError } from "./errors.js";
import { newId, now } from "./ids.js";

export type JobStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED";

export interface Job {
  jobId: string;
  kind: string;
  status: JobStatus;
  /** whose work it is (for ownership checks) */
  customerId: string | null;
  result: { orderId: string } | null;
  error: { title: string; detail?: string } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const toJob = (row: Selectable<JobsTable>): Job => ({
  jobId: row.job_id,
  kind: row.kind,
  status: row.status as JobStatus,
  customerId: (JSON.parse(row.payload) as { customerId?: string }).customerId ?? null,
  result: row.result ? JSON.parse(row.result) : null,
  error: row.error ? JSON.parse(row.error) : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** Records a PENDING job inside the caller's transaction, so accepting work and recording it are one commit. */
export async function enqueueJob(db: Kysely<Database>, kind: string, payload: object): Promise<Job> {
  const at = now();
  const row = {
    job_id: newId("job"),
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
  constructor(private readonly store: Store) {}

  async get(jobId: string): Promise<Job> {
    const row = await this.store.db.selectFrom("jobs").selectAll().where("job_id", "=", jobId).executeTakeFirst();
    if (!row) throw new NotFoundError("job", jobId);
    return toJob(row);
  }
}

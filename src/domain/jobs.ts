// Jobs: durable records of asynchronous work (cart checkout). Read side; the worker arrives with the REST domain issue.
import type { Store } from "../store/database.js";
import { NotFoundError } from "./errors.js";

export type JobStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED";

export interface Job {
  jobId: string;
  status: JobStatus;
  result: { orderId: string } | null;
  error: { title: string; detail?: string } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export class JobService {
  constructor(private readonly store: Store) {}

  async get(jobId: string): Promise<Job> {
    const row = await this.store.db.selectFrom("jobs").selectAll().where("job_id", "=", jobId).executeTakeFirst();
    if (!row) throw new NotFoundError("job", jobId);
    return {
      jobId: row.job_id,
      status: row.status as JobStatus,
      result: row.result ? JSON.parse(row.result) : null,
      error: row.error ? JSON.parse(row.error) : null,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
    };
  }
}

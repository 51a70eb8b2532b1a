// REST adapter for jobs: the status monitor that 202 responses point at.
import type { RestHandlers } from "../../generated/rest.js";
import type { Job } from "../domain/jobs.js";
import type { Services } from "../domain/services.js";
import { resourceHeaders } from "../http/conditional.js";
import { domainProblem, locations } from "./outcomes.js";
import type { Job as RestJob } from "./representations.js";

export function jobBody(j: Job): RestJob {
  const body: RestJob = { jobId: j.jobId, status: j.status, createdAt: j.createdAt, updatedAt: j.updatedAt };
  if (j.result) body.result = { orderId: j.result.orderId, orderUrl: locations.order(j.result.orderId) };
  if (j.error) body.error = { type: "urn:twinspec:problem:job-failed", status: 409, ...j.error };
  return body;
}

export function jobHandlers({ jobs }: Services) {
  return {
    async getJob(req) {
      try {
        const j = await jobs.get(req.params.jobId);
        return { status: 200, body: jobBody(j), headers: resourceHeaders(j) };
      } catch (e) {
        return domainProblem(e, ["not_found"]);
      }
    },
  } satisfies Partial<RestHandlers>;
}

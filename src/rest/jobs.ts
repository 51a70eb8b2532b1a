// REST handlers for the jobs operations of openapi.yaml: the status monitor that 202 responses point at.
// `npm run generate` adds a stub here for each new operation of this tag; replace its body.
import type { components } from "../../generated/openapi.js";
import type { HandlersByTag } from "../../generated/rest.js";
import type { Job } from "../domain/jobs.js";
import { PROBLEMS, resourceHeaders } from "twinspec";
import { location } from "../../generated/contract.js";

export function jobBody(j: Job): components["schemas"]["Job"] {
  const body: components["schemas"]["Job"] = {
    jobId: j.jobId,
    customerId: j.customerId,
    status: j.status,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
  };
  if (j.result) body.result = { orderId: j.result.orderId, orderUrl: location("orders", j.result.orderId) };
  if (j.error) body.error = { type: PROBLEMS.job_failed.type, status: PROBLEMS.job_failed.status, ...j.error };
  return body;
}

export const handlers: HandlersByTag["jobs"] = {
  async getJob(req, { services }) {
    const j = await services.jobs.get(req.params.jobId);
    return { status: 200, body: jobBody(j), headers: resourceHeaders(j) };
  },
};

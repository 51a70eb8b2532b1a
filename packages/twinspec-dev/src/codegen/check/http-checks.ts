// What openapi.yaml must declare because the server can answer it: every status the runtime itself produces for an
// operation (validation, auth, content negotiation, body limits, idempotency keys, rate limits, unexpected
// failures), and the conditional-request headers of every resource that has an ETag (RFC 9110 §13). Each gap names
// the operation.
import { answersEtag, type Operation } from "../model/operations.js";
import type { ContractProblem } from "../load/diagnostics.js";

const secured = (op: Operation) => op.security.length > 0 && op.security.every((alternative) => alternative.length > 0);
const hasHeader = (op: Operation, name: string) =>
  op.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === name.toLowerCase());

/** Statuses the runtime (not the handler) may answer for this operation, each with why; `limited`: it spends a rate limit. */
export function runtimeStatuses(op: Operation, limited = false): Map<string, string> {
  const statuses = new Map<string, string>();
  if (op.parameters.length > 0 || op.requestBody) statuses.set("400", "its parameters and body are validated");
  if (secured(op)) {
    statuses.set("401", "it needs a bearer token");
    statuses.set("403", "its token may lack the scopes or act for someone else");
  }
  if (op.responses.some((r) => /^(2|default)/.test(r.status) && r.contentTypes.length > 0))
    statuses.set("406", "its answers are negotiated (Accept)");
  if (op.requestBody) {
    statuses.set("413", "its body is limited in size");
    statuses.set("415", "its body's Content-Type is checked");
  }
  if (hasHeader(op, "Idempotency-Key")) {
    statuses.set("409", "a repeat of its Idempotency-Key may arrive while the first request runs");
    statuses.set("422", "its Idempotency-Key may be reused with another request");
  }
  if (limited) statuses.set("429", "it spends a rate limit (x-rate-limit)");
  statuses.set("500", "anything may fail unexpectedly");
  statuses.set("503", "its data may be out of reach (database down, disk full)");
  // Answered by the HTTP layer before any operation is chosen, yet to a request for this operation's URL.
  statuses.set("408", "a client may send its headers or body too slowly");
  statuses.set("414", "a client may send a URL longer than the server accepts");
  statuses.set("431", "a client may send headers larger than the server accepts");
  return statuses;
}

/** `limited`: the operationIds that spend a rate limit (RateLimits.rest). */
export function checkHttpContract(
  operations: Operation[],
  file = "openapi.yaml",
  limited: ReadonlySet<string> = new Set(),
): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const at = (op: Operation) => `${file}#/paths/${op.path.replace(/~/g, "~0").replace(/\//g, "~1")}/${op.method}`;
  for (const op of operations) {
    const declared = new Set(op.responses.map((r) => r.status));
    for (const [status, why] of runtimeStatuses(op, limited.has(op.operationId))) {
      if (!declared.has(status))
        problems.push({ at: at(op), message: `${op.operationId} must declare ${status}: ${why}` });
    }
  }
  // Conditional requests, for every resource whose GET answers an ETag.
  const etagged = new Set(operations.filter((op) => op.method === "get" && answersEtag(op)).map((op) => op.path));
  for (const op of operations) {
    if (!etagged.has(op.path) && !(answersEtag(op) && op.method !== "post")) continue;
    const need: [string[], string][] =
      op.method === "get"
        ? [[["If-None-Match", "If-Modified-Since"], "304"]]
        : op.method === "put"
          ? [[["If-Match", "If-None-Match", "If-Unmodified-Since"], "412"]]
          : op.method === "patch" || op.method === "delete"
            ? [[["If-Match", "If-Unmodified-Since"], "412"]]
            : [];
    for (const [headers, status] of need) {
      const missing = headers.filter((h) => !hasHeader(op, h));
      if (missing.length)
        problems.push({
          at: at(op),
          message: `${op.operationId} acts on a resource with an ETag: declare the header parameter(s) ${missing.join(", ")}`,
        });
      if (!op.responses.some((r) => r.status === status))
        problems.push({ at: at(op), message: `${op.operationId} acts on a resource with an ETag: declare ${status}` });
    }
  }
  return problems;
}

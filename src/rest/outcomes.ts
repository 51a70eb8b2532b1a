// Domain outcomes → declared REST responses. A handler lists the statuses its operation declares;
// a domain error outside that list is not a declared outcome and is rethrown (→ masked 500).
import { DomainError } from "../domain/errors.js";
import { problem, type FieldError, type Problem } from "../http/problem.js";

const STATUS = { invalid: 400, not_found: 404, gone: 410, moved: 301, conflict: 409, precondition: 412 } as const;
type Kind = keyof typeof STATUS;
type StatusOf<K extends Kind> = (typeof STATUS)[K];

export type ProblemResponse<S extends number> = S extends 301
  ? { status: 301; body: Problem; headers: { Location: string } }
  : { status: S; body: Problem };

/** URL of a resource, as used in Location headers. */
export const locations = {
  customer: (id: string) => `/customers/${encodeURIComponent(id)}`,
  order: (id: string) => `/orders/${encodeURIComponent(id)}`,
  cart: (id: string) => `/carts/${encodeURIComponent(id)}`,
  job: (id: string) => `/jobs/${encodeURIComponent(id)}`,
};

export interface ProblemOptions {
  /** which part of the request invalid input came from (the domain does not know) */
  where?: FieldError["in"];
  /** URL of the same resource under the customer it moved to (default: that customer) */
  moved?: (to: string) => string;
}

export function domainProblem<K extends Kind>(error: unknown, kinds: readonly K[], options: ProblemOptions = {}): ProblemResponse<StatusOf<K>> {
  const where = options.where ?? "body";
  if (!(error instanceof DomainError) || !(kinds as readonly string[]).includes(error.kind)) throw error;
  const status = STATUS[error.kind];
  const body = problem(status, error.message, { type: `urn:twinspec:problem:${error.kind.replace("_", "-")}` });
  if (error.kind === "invalid" && "errors" in error) {
    body.errors = (error as { errors: { pointer: string; message: string }[] }).errors.map((e) => ({ in: where, ...e }));
  }
  if (error.kind === "conflict" && "allowed" in error && error.allowed) body.allowed = error.allowed as string[];
  if (error.kind === "moved" && "to" in error) {
    const location = (options.moved ?? locations.customer)(String(error.to));
    return { status: 301, body: { ...body, detail: `${error.message}; see ${location}` }, headers: { Location: location } } as ProblemResponse<StatusOf<K>>;
  }
  return { status, body } as ProblemResponse<StatusOf<K>>;
}

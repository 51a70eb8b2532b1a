// The catalog of problem types: every problem the server answers under a type of its own, one entry each — a stable
// key, the type URI clients switch on, the HTTP status, the title, and the GraphQL extensions.code of the same
// outcome where GraphQL answers it. The refusals the status says all of are entries too, typed about:blank and titled
// with the status phrase; a problem answered with neither (problem(status, …)) is one whose status is not the
// server's to pick (a mock's declared answer, Node's own refusals).
// The only place a `urn:twinspec:problem:` URI is written (test/runtime/problems.test.ts holds the sources to it);
// the kinds the error table maps (src/error-table.ts) come first. It lives in runtime/ because the REST runtime
// answers some of these itself and stands alone.
import { HttpError, problem, type Problem } from "./problem.js";

/** One entry of the catalog. */
export interface ProblemEntry {
  /** the problem's `type` URI */
  type: string;
  /** the HTTP status it is answered with */
  status: number;
  /** its `title` */
  title: string;
  /** the GraphQL `extensions.code` of the same outcome, where GraphQL answers it */
  code?: string;
}

/** Every problem type, by key. */
export const PROBLEMS = {
  // Domain outcomes (src/domain/errors.ts) and the auth layer's refusals: src/error-table.ts.
  invalid: { type: "urn:twinspec:problem:invalid", status: 400, title: "Bad Request", code: "BAD_USER_INPUT" },
  unprocessable: {
    type: "urn:twinspec:problem:unprocessable",
    status: 422,
    title: "Unprocessable Entity",
    code: "BAD_USER_INPUT",
  },
  not_found: { type: "urn:twinspec:problem:not-found", status: 404, title: "Not Found", code: "NOT_FOUND" },
  gone: { type: "urn:twinspec:problem:gone", status: 410, title: "Gone", code: "GONE" },
  moved: { type: "urn:twinspec:problem:moved", status: 301, title: "Moved Permanently", code: "MOVED_PERMANENTLY" },
  conflict: { type: "urn:twinspec:problem:conflict", status: 409, title: "Conflict", code: "CONFLICT" },
  // GraphQL has no conditional headers: a write that lost a race reads as a conflict there.
  precondition: {
    type: "urn:twinspec:problem:precondition",
    status: 412,
    title: "Precondition Failed",
    code: "CONFLICT",
  },
  not_implemented: {
    type: "urn:twinspec:problem:not-implemented",
    status: 501,
    title: "Not Implemented",
    code: "NOT_IMPLEMENTED",
  },
  // An event stream resumed after an id older than the event log's retention (src/store/event-log.ts).
  expired: { type: "urn:twinspec:problem:expired", status: 410, title: "Gone", code: "EVENTS_EXPIRED" },
  // The database cannot serve now (src/store/unavailable.ts): the same request later may well succeed.
  unavailable: {
    type: "urn:twinspec:problem:unavailable",
    status: 503,
    title: "Service Unavailable",
    code: "SERVICE_UNAVAILABLE",
  },
  unauthenticated: {
    type: "urn:twinspec:problem:unauthenticated",
    status: 401,
    title: "Unauthorized",
    code: "UNAUTHENTICATED",
  },
  forbidden: { type: "urn:twinspec:problem:forbidden", status: 403, title: "Forbidden", code: "FORBIDDEN" },
  // The REST layer's own.
  validation: { type: "urn:twinspec:problem:validation", status: 400, title: "Invalid request" },
  insufficient_scope: {
    type: "urn:twinspec:problem:insufficient-scope",
    status: 403,
    title: "Forbidden",
    code: "FORBIDDEN",
  },
  idempotency_key_reused: {
    type: "urn:twinspec:problem:idempotency-key-reused",
    status: 422,
    title: "Unprocessable Entity",
  },
  rate_limited: {
    type: "urn:twinspec:problem:rate-limited",
    status: 429,
    title: "Too Many Requests",
    code: "RATE_LIMITED",
  },
  response_validation: {
    type: "urn:twinspec:problem:response-validation",
    status: 500,
    title: "Response does not match the spec",
  },
  // A job's final failure (src/store/job-queue.ts), as its status monitor shows it; its title is the failure's own
  // (JobFailed's), this one when the handler gave none.
  job_failed: { type: "urn:twinspec:problem:job-failed", status: 409, title: "Job failed" },
  // The refusals the status says all of: about:blank, titled with the status phrase (Node's STATUS_CODES). Their
  // bodies are what problem() built for them before the catalog held them.
  // Input the transport cannot take: a malformed path, parameter, body or multipart part.
  bad_request: { type: "about:blank", status: 400, title: "Bad Request", code: "BAD_REQUEST" },
  // /metrics without its token (METRICS_TOKEN), and closed in production with no guard set.
  metrics_unauthorized: { type: "about:blank", status: 401, title: "Unauthorized" },
  metrics_closed: { type: "about:blank", status: 403, title: "Forbidden" },
  // A path that is no operation's (with the API's entry points), a WebSocket upgrade on another path than GraphQL's.
  no_route: { type: "about:blank", status: 404, title: "Not Found" },
  method_not_allowed: { type: "about:blank", status: 405, title: "Method Not Allowed", code: "METHOD_NOT_ALLOWED" },
  not_acceptable: { type: "about:blank", status: 406, title: "Not Acceptable", code: "NOT_ACCEPTABLE" },
  // The first request with the same Idempotency-Key is still being handled.
  in_progress: { type: "about:blank", status: 409, title: "Conflict" },
  too_large: { type: "about:blank", status: 413, title: "Payload Too Large" },
  uri_too_long: { type: "about:blank", status: 414, title: "URI Too Long" },
  unsupported_media_type: {
    type: "about:blank",
    status: 415,
    title: "Unsupported Media Type",
    code: "UNSUPPORTED_MEDIA_TYPE",
  },
  internal: { type: "about:blank", status: 500, title: "Internal Server Error", code: "INTERNAL_SERVER_ERROR" },
  // An operation the spec declares that has no handler yet (not_implemented is a handler's own NotImplemented).
  unimplemented: { type: "about:blank", status: 501, title: "Not Implemented" },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemKey = keyof typeof PROBLEMS;

/**
 * The problem of a catalog entry: its type, title and status, with `detail`.
 *
 * @param key - the entry
 * @param detail - what went wrong, for a person to read
 * @param extra - any other member (`errors`, `requestId`, …); default none
 */
export function problemOf(key: ProblemKey, detail: string, extra: Partial<Problem> = {}): Problem {
  const { type, status, title } = PROBLEMS[key];
  return problem(status, detail, { type, title, ...extra });
}

/**
 * An HttpError answering the problem of a catalog entry.
 *
 * @param key - the entry
 * @param detail - what went wrong, for a person to read
 * @param extra - any other member of the problem; default none
 * @param headers - headers sent with it (WWW-Authenticate, Retry-After, …); default none
 */
export const refusalOf = (
  key: ProblemKey,
  detail: string,
  extra: Partial<Problem> = {},
  headers: Record<string, string> = {},
) => new HttpError(problemOf(key, detail, extra), headers);

/**
 * A handler's answer with the problem of a catalog entry, at its status: `{ status, body }`.
 *
 * @param key - the entry
 * @param detail - what went wrong, for a person to read
 */
export function answerOf(key: ProblemKey, detail: string): { status: number; body: Problem } {
  const body = problemOf(key, detail);
  return { status: body.status, body };
}

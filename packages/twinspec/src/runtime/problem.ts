// RFC 9457 problem details: the one shape of every REST error body.
import { STATUS_CODES } from "node:http";
import type { Context } from "koa";

export interface FieldError {
  in: "path" | "query" | "header" | "cookie" | "body";
  pointer: string;
  message: string;
}

/** An RFC 9457 problem: the body of every REST error (application/problem+json). */
export interface Problem {
  /** a URI naming the kind of problem (an entry's of the catalog, runtime/problems.ts; "about:blank" when the status says it all) */
  type: string;
  /** a short summary of the kind (the status phrase unless given) */
  title: string;
  /** the HTTP status */
  status: number;
  /** what went wrong with this request, for a person to read */
  detail?: string;
  /** a URI of this occurrence */
  instance?: string;
  /** the request's id (X-Request-Id), to quote when reporting it; added to every problem answered */
  requestId?: string;
  /** invalid input: one entry per bad field (where it is: `in` and JSON `pointer`, and what is wrong) */
  errors?: FieldError[];
  /** a 409's acceptable values (ConflictError's `allowed`) */
  allowed?: string[];
  /** a 404 for a path that is no operation's: the API's entry points */
  entryPoints?: string[];
}

export const PROBLEM_TYPE = "application/problem+json";

/**
 * A problem as a value: `type` names the kind ("about:blank" unless given), `title` is the status phrase unless given.
 *
 * @param status - the HTTP status
 * @param detail - what went wrong, for a person to read
 * @param extra - any other member, overriding the defaults (`type`, `title`, `errors`, …); default none
 */
export function problem(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail, ...extra };
}

/** Thrown by transport code (never by handlers for declared outcomes); `expose` as in Koa. */
export class HttpError extends Error {
  /** true: the message may be shown to the client (Koa's convention) */
  readonly expose = true;
  /** the HTTP status; a plain property (not a getter): Koa's default error handler assigns err.status */
  status: number;
  constructor(
    /** the problem answered as the body (application/problem+json) */
    readonly problem: Problem,
    /** headers sent with it (WWW-Authenticate, Allow, Retry-After, …); default none */
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail ?? problem.title);
    this.status = problem.status;
  }
}

/**
 * An HttpError whose problem is `problem(status, detail, extra)`: what an authorizer throws to refuse (401 with
 * WWW-Authenticate, 403).
 *
 * @param status - the HTTP status
 * @param detail - what went wrong, for a person to read
 * @param extra - any other member of the problem (`type`, `title`, `errors`, …); default none
 * @param headers - headers sent with it (WWW-Authenticate, Allow, …); default none
 */
export const httpError = (
  status: number,
  detail: string,
  extra: Partial<Problem> = {},
  headers: Record<string, string> = {},
) => new HttpError(problem(status, detail, extra), headers);

/**
 * Writes a problem as the response, with its own status: every problem answered through Koa goes out here, so all
 * have the same shape.
 *
 * @param ctx - the request's Koa context
 * @param body - the problem (with the request id, when the caller adds one)
 * @param headers - what its kind needs besides (Allow, Retry-After, WWW-Authenticate, …); default none
 */
export function answerProblem(ctx: Context, body: Problem, headers: Record<string, string> = {}): void {
  ctx.status = body.status;
  ctx.set(headers);
  ctx.body = body;
  ctx.type = PROBLEM_TYPE;
}

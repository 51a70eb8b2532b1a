// RFC 9457 problem details: the one shape of every REST error body.
import { STATUS_CODES } from "node:http";

export interface FieldError {
  in: "path" | "query" | "header" | "cookie" | "body";
  pointer: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  allowed?: string[];
  entryPoints?: string[];
}

export const PROBLEM_TYPE = "application/problem+json";

/** A problem as a value: `type` names the kind, `title` is the status phrase unless given. */
export function problem(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail, ...extra };
}

/** Thrown by transport code (never by handlers for declared outcomes); `expose` as in Koa. */
export class HttpError extends Error {
  readonly expose = true;
  /** a plain property (not a getter): Koa's default error handler assigns err.status */
  status: number;
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail ?? problem.title);
    this.status = problem.status;
  }
}

export const httpError = (status: number, detail: string, extra: Partial<Problem> = {}, headers: Record<string, string> = {}) =>
  new HttpError(problem(status, detail, extra), headers);

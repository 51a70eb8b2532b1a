// The one table of error kinds: what each domain outcome (src/domain/errors.ts) and each refusal of the auth layer
// reads as on each transport — the REST status and problem type, the GraphQL extensions.code — as the problem
// catalog (runtime/problems.ts) has them. REST answers a kind with the status only where the operation declares it
// (src/runtime/index.ts); GraphQL with the code.
import type { ErrorKind } from "./domain/errors.js";
import { PROBLEMS } from "./runtime/problems.js";

export interface ErrorReading {
  status: number;
  code: string;
}

const {
  invalid,
  unprocessable,
  not_found,
  gone,
  moved,
  conflict,
  precondition,
  not_implemented,
  expired,
  unavailable,
  unauthenticated,
  forbidden,
} = PROBLEMS;
export const ERRORS = {
  invalid,
  unprocessable,
  not_found,
  gone,
  moved,
  conflict,
  precondition,
  not_implemented,
  expired,
  unavailable,
  unauthenticated,
  forbidden,
} as const satisfies Record<ErrorKind | "unauthenticated" | "forbidden" | "unavailable", ErrorReading>;

export type Kind = keyof typeof ERRORS;

/** The GraphQL code of an HTTP status the auth layer refused with (401, 403). */
export const codeOfStatus = (status: number): string | undefined =>
  Object.values(ERRORS).find((e) => e.status === status)?.code;

/** Every `extensions.code` this server answers over GraphQL: the kinds above and the protocol's own refusals. */
export const GRAPHQL_CODES = [
  ...new Set(Object.values(ERRORS).map((e) => e.code)),
  "BAD_REQUEST",
  "INTERNAL_SERVER_ERROR",
  "RATE_LIMITED",
  // A subscriber that fell too far behind is ended with this and its last event id, to resume from there.
  "EVENTS_OVERFLOW",
  "METHOD_NOT_ALLOWED",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_IN_LIST",
  "DOCUMENT_SIZE_LIMIT_EXCEEDED",
  "VARIABLES_SIZE_LIMIT_EXCEEDED",
  "DEPTH_LIMIT_EXCEEDED",
  "COST_LIMIT_EXCEEDED",
  "ALIAS_LIMIT_EXCEEDED",
  "TOKEN_LIMIT_EXCEEDED",
  "DIRECTIVE_LIMIT_EXCEEDED",
  "VALIDATION_TIMEOUT",
  // Connection budgets: subscriptions on one graphql-ws connection, event streams from one address.
  "SUBSCRIPTION_LIMIT_EXCEEDED",
  "STREAM_LIMIT_EXCEEDED",
  // GraphQL over HTTP's refusals of the request itself (406, 415), with what to send instead.
  "NOT_ACCEPTABLE",
  "UNSUPPORTED_MEDIA_TYPE",
] as const;

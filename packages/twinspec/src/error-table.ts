// The one table of error kinds: what each domain outcome (src/domain/errors.ts) and each refusal of the auth layer
// reads as on each transport — the REST status (and problem type), the GraphQL extensions.code. REST answers a kind
// with the status only where the operation declares it (src/runtime/index.ts); GraphQL with the code.
import type { ErrorKind } from "./domain/errors.js";

export interface ErrorReading {
  status: number;
  code: string;
}

export const ERRORS = {
  invalid: { status: 400, code: "BAD_USER_INPUT" },
  unprocessable: { status: 422, code: "BAD_USER_INPUT" },
  not_found: { status: 404, code: "NOT_FOUND" },
  gone: { status: 410, code: "GONE" },
  moved: { status: 301, code: "MOVED_PERMANENTLY" },
  conflict: { status: 409, code: "CONFLICT" },
  // GraphQL has no conditional headers: a write that lost a race reads as a conflict there.
  precondition: { status: 412, code: "CONFLICT" },
  not_implemented: { status: 501, code: "NOT_IMPLEMENTED" },
  // An event stream resumed after an id older than the event log's retention (src/store/event-log.ts).
  expired: { status: 410, code: "EVENTS_EXPIRED" },
  // The database cannot serve now (src/store/unavailable.ts): the same request later may well succeed.
  unavailable: { status: 503, code: "SERVICE_UNAVAILABLE" },
  unauthenticated: { status: 401, code: "UNAUTHENTICATED" },
  forbidden: { status: 403, code: "FORBIDDEN" },
} as const satisfies Record<ErrorKind | "unauthenticated" | "forbidden" | "unavailable", ErrorReading>;

export type Kind = keyof typeof ERRORS;

/** The problem type URI of a kind ("not_found" → urn:twinspec:problem:not-found). */
export const problemType = (kind: Kind) => `urn:twinspec:problem:${kind.replace(/_/g, "-")}`;

/** The GraphQL code of an HTTP status the auth layer refused with (401, 403). */
export const codeOfStatus = (status: number): string | undefined => Object.values(ERRORS).find((e) => e.status === status)?.code;

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

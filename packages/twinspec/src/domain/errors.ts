// Outcomes of the domain that are not success. Transports map each kind to their own vocabulary
// (REST status + problem, GraphQL extensions.code); the domain never speaks HTTP or GraphQL.

/** One thing wrong with an input: where, and what. */
export interface InputError {
  /** JSON pointer into the input, e.g. "/email" or "/items/0/quantity" ("" for the input as a whole) */
  pointer: string;
  /** what is wrong there, for a person to read ("must be a valid email address") */
  message: string;
}

/**
 * What a DomainError is, which decides how each transport answers it (src/error-table.ts): "invalid" 400
 * BAD_USER_INPUT, "unprocessable" 422 BAD_USER_INPUT, "not_found" 404 NOT_FOUND, "gone" 410 GONE, "moved" 301
 * MOVED_PERMANENTLY, "conflict" 409 CONFLICT, "precondition" 412 (CONFLICT on GraphQL), "not_implemented" 501
 * NOT_IMPLEMENTED, "expired" 410 EVENTS_EXPIRED.
 */
export type ErrorKind =
  | "invalid"
  | "unprocessable"
  | "not_found"
  | "gone"
  | "moved"
  | "conflict"
  | "precondition"
  | "not_implemented"
  | "expired";

/**
 * An outcome of the domain that is not success: what a domain service throws, and each transport answers by its
 * `kind` (REST: the status, as problem+json, where the operation declares it; GraphQL: `extensions.code`). Throw one
 * of the subclasses below.
 */
export abstract class DomainError extends Error {
  /** which outcome it is: decides the REST status and the GraphQL code */
  abstract readonly kind: ErrorKind;
}

/** The input breaks a rule of the domain's that no schema states (REST 400 with `errors`, GraphQL BAD_USER_INPUT). */
export class InvalidInputError extends DomainError {
  /** "invalid" */
  readonly kind = "invalid";
  constructor(
    /** what is wrong, one entry per place (at least one); a pointer naming a path or query parameter is placed there on REST, else in the body */
    readonly errors: InputError[],
  ) {
    super(errors.map((e) => `${e.pointer || "input"}: ${e.message}`).join("; "));
  }
}

/** Well-formed input whose content is not what it says it is (an upload whose bytes are not its declared media type): REST 422, GraphQL BAD_USER_INPUT. */
export class UnprocessableError extends DomainError {
  /** "unprocessable" */
  readonly kind = "unprocessable";
  constructor(
    /** what is wrong, one entry per place (at least one) */
    readonly errors: InputError[],
  ) {
    super(errors.map((e) => `${e.pointer || "input"}: ${e.message}`).join("; "));
  }
}

/** No such instance (REST 404, GraphQL NOT_FOUND): the message is "<resource> <id> does not exist". */
export class NotFoundError extends DomainError {
  /** "not_found" */
  readonly kind = "not_found";
  constructor(
    /** what kind of thing was asked for, as the message names it ("book", "loan") */
    readonly resource: string,
    /** the id that was asked for */
    readonly id: string,
  ) {
    super(`${resource} ${id} does not exist`);
  }
}

/** The instance existed and was deleted (REST 410, GraphQL GONE): the message is "<resource> <id> was deleted". */
export class GoneError extends DomainError {
  /** "gone" */
  readonly kind = "gone";
  constructor(
    /** what kind of thing was asked for, as the message names it ("book", "loan") */
    readonly resource: string,
    /** the id that was asked for */
    readonly id: string,
  ) {
    super(`${resource} ${id} was deleted`);
  }
}

/** A stub that `npm run generate` wrote and nobody filled in yet (REST 501, GraphQL NOT_IMPLEMENTED). */
export class NotImplementedError extends DomainError {
  /** "not_implemented" */
  readonly kind = "not_implemented";
  constructor(
    /** what is not written yet, as the message names it (an operationId, "Query.book") */
    readonly what: string,
  ) {
    super(`${what} is declared in the specs but not implemented yet.`);
  }
}

/**
 * The resource now lives elsewhere (e.g. one record merged into another): REST 301 with a Location naming `to` in
 * place of `id` in the request's path, GraphQL MOVED_PERMANENTLY with `extensions.movedTo`.
 */
export class MovedError extends DomainError {
  /** "moved" */
  readonly kind = "moved";
  constructor(
    /** what kind of thing was asked for, as the message names it */
    readonly resource: string,
    /** the id that was asked for */
    readonly id: string,
    /** the id it lives at now: transports name the same place with `to` instead of `id` */
    readonly to: string,
  ) {
    super(`${resource} ${id} was merged into ${to}`);
  }
}

/**
 * The request conflicts with the instance's state (a transition its status does not allow): REST 409, GraphQL
 * CONFLICT, each with `allowed` when given.
 */
export class ConflictError extends DomainError {
  /** "conflict" */
  readonly kind = "conflict";
  /** @param message - what conflicts, for a person to read (the problem's detail, the GraphQL error's message) */
  constructor(
    message: string,
    /** what would have been accepted (e.g. the statuses a transition may go to): the problem's `allowed`, GraphQL's `extensions.allowed`; default none */
    readonly allowed?: string[],
  ) {
    super(message);
  }
}

/** The caller's copy is stale (If-Match / If-Unmodified-Since did not hold): REST 412, GraphQL CONFLICT. */
export class PreconditionError extends DomainError {
  /** "precondition" */
  readonly kind = "precondition";
  constructor(
    /** what kind of thing was written, as the message names it */
    readonly resource: string,
    /** the id of the instance written */
    readonly id: string,
  ) {
    super(`${resource} ${id} has changed since the version the request is based on; fetch it again`);
  }
}

/** A stream asked to resume after an event id older than the event log's retention: what followed it is gone (REST 410, GraphQL EVENTS_EXPIRED). */
export class EventsExpiredError extends DomainError {
  /** "expired" */
  readonly kind = "expired";
  constructor(
    /** the event id the stream asked to resume after (Last-Event-ID, `after`) */
    readonly id: string,
  ) {
    super(`events after ${id} are no longer kept; read the current state and subscribe again without an id`);
  }
}

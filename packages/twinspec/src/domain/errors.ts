// Outcomes of the domain that are not success. Transports map each kind to their own vocabulary
// (REST status + problem, GraphQL extensions.code); the domain never speaks HTTP or GraphQL.

export interface InputError {
  /** JSON pointer into the input, e.g. "/email" or "/items/0/quantity" */
  pointer: string;
  message: string;
}

export type ErrorKind = "invalid" | "unprocessable" | "not_found" | "gone" | "moved" | "conflict" | "precondition" | "not_implemented" | "expired";

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
}

export class InvalidInputError extends DomainError {
  readonly kind = "invalid";
  constructor(readonly errors: InputError[]) {
    super(errors.map((e) => `${e.pointer || "input"}: ${e.message}`).join("; "));
  }
}

/** Well-formed input whose content is not what it says it is (an upload whose bytes are not its declared media type). */
export class UnprocessableError extends DomainError {
  readonly kind = "unprocessable";
  constructor(readonly errors: InputError[]) {
    super(errors.map((e) => `${e.pointer || "input"}: ${e.message}`).join("; "));
  }
}

export class NotFoundError extends DomainError {
  readonly kind = "not_found";
  constructor(readonly resource: string, readonly id: string) {
    super(`${resource} ${id} does not exist`);
  }
}

export class GoneError extends DomainError {
  readonly kind = "gone";
  constructor(readonly resource: string, readonly id: string) {
    super(`${resource} ${id} was deleted`);
  }
}

/** A stub that `npm run generate` wrote and nobody filled in yet (REST 501, GraphQL NOT_IMPLEMENTED). */
export class NotImplementedError extends DomainError {
  readonly kind = "not_implemented";
  constructor(readonly what: string) {
    super(`${what} is declared in the specs but not implemented yet.`);
  }
}

/** The resource now lives elsewhere (e.g. one record merged into another). */
export class MovedError extends DomainError {
  readonly kind = "moved";
  /** `id` (of `resource`) now lives at `to`: transports name the same place with `to` instead of `id` */
  constructor(readonly resource: string, readonly id: string, readonly to: string) {
    super(`${resource} ${id} was merged into ${to}`);
  }
}

export class ConflictError extends DomainError {
  readonly kind = "conflict";
  constructor(message: string, readonly allowed?: string[]) {
    super(message);
  }
}

/** The caller's copy is stale (If-Match / If-Unmodified-Since did not hold). */
export class PreconditionError extends DomainError {
  readonly kind = "precondition";
  constructor(readonly resource: string, readonly id: string) {
    super(`${resource} ${id} has changed since the version the request is based on; fetch it again`);
  }
}

/** A stream asked to resume after an event id older than the event log's retention: what followed it is gone. */
export class EventsExpiredError extends DomainError {
  readonly kind = "expired";
  constructor(readonly id: string) {
    super(`events after ${id} are no longer kept; read the current state and subscribe again without an id`);
  }
}

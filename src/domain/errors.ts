// Outcomes of the domain that are not success. Transports map each kind to their own vocabulary
// (REST status + problem, GraphQL extensions.code); the domain never speaks HTTP or GraphQL.

export interface InputError {
  /** JSON pointer into the input, e.g. "/email" or "/items/0/quantity" */
  pointer: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: "invalid" | "not_found" | "gone" | "moved" | "conflict" | "precondition";
}

export class InvalidInputError extends DomainError {
  readonly kind = "invalid";
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

/** The resource now lives elsewhere (a customer merged into another). */
export class MovedError extends DomainError {
  readonly kind = "moved";
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

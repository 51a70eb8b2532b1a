// The error a helper throws when the server answered something other than what it needed (a page, a job):
// it carries the whole outcome, so a caller can switch on its status and read its problem body.
import type { OutcomeBase } from "./types.js";

export class RestError<O extends OutcomeBase = OutcomeBase> extends Error {
  readonly status: number;
  constructor(
    readonly outcome: O,
    message = `the server answered ${outcome.status}`,
  ) {
    const detail = (outcome.body as { detail?: unknown } | undefined)?.detail;
    super(typeof detail === "string" ? `${message}: ${detail}` : message);
    this.name = "RestError";
    this.status = outcome.status;
  }
}

// What every REST handler receives as `ctx` (generated/rest.ts types it so): the runtime's request context, the
// domain services, the caller, and the conditional headers as domain preconditions.
import type { Principal } from "../auth/principal.js";
import type { Preconditions } from "../domain/preconditions.js";
import type { RequestContext } from "../runtime/index.js";

/**
 * What every REST handler receives as `ctx`: generated/wiring.ts's `RestContext` is this with the application's
 * `Services`.
 */
export interface RestContext<Services = unknown> extends RequestContext {
  /** the application's services, by tag (`ctx.services.books.get(bookId)`) */
  services: Services;
  /** who calls, as the bearer token says (null on an operation that needs no token) */
  principal: Principal | null;
  /** If-Match / If-None-Match / If-Unmodified-Since, for the domain to check inside its write */
  preconditions?: Preconditions;
}

// What every REST handler receives as `ctx` (generated/rest.ts types it so): the runtime's request context, the
// domain services, the caller, and the conditional headers as domain preconditions.
import type { Principal } from "../auth/principal.js";
import type { Preconditions } from "../domain/preconditions.js";
import type { RequestContext } from "../runtime/index.js";

export interface RestContext<Services = unknown> extends RequestContext {
  services: Services;
  principal: Principal | null;
  /** If-Match / If-None-Match / If-Unmodified-Since, for the domain to check inside its write */
  preconditions?: Preconditions;
}

// What every resolver receives: the domain services, this operation's loaders, who is calling.
import type { Logger } from "pino";
import type { Principal } from "../auth/principal.js";
import type { Services } from "../domain/services.js";
import { createLoaders, type Loaders } from "./loaders.js";
import type { LiveStreams } from "./streams.js";

// A type alias (not an interface) so graphql-http accepts it as a record.
export type GraphqlContext = {
  services: Services;
  loaders: Loaders;
  principal: Principal | null;
  requestId: string;
  log?: Logger;
  /** live subscription streams (ended when the app closes) */
  streams: LiveStreams;
};

/** One context per operation: loaders cache only within it. */
export function createContext(services: Services, streams: LiveStreams, caller: { principal?: Principal | null; requestId?: string; log?: Logger }): GraphqlContext {
  return { services, streams, loaders: createLoaders(services), principal: caller.principal ?? null, requestId: caller.requestId ?? "", log: caller.log };
}

// What every resolver receives: the domain services, this operation's loaders, who is calling, the event bus for
// subscriptions.
import type { Logger } from "pino";
import type { Services } from "../../generated/wiring.js";
import type { Principal } from "../auth/principal.js";
import type { EventBus } from "../store/events.js";
import { createLoaders, type Loaders } from "./loaders.js";
import type { LiveStreams } from "./streams.js";

// A type alias (not an interface) so graphql-http accepts it as a record.
export type GraphqlContext = {
  services: Services;
  loaders: Loaders;
  principal: Principal | null;
  requestId: string;
  log?: Logger;
  /** the bus domain changes are published on (subscriptions listen there) */
  bus: EventBus;
  /** live subscription streams (ended when the app closes) */
  streams: LiveStreams;
};

interface Shared {
  services: Services;
  bus: EventBus;
  streams: LiveStreams;
}

/** Who is calling, and the log of their request: a logger, or where to get one when something is logged. */
export type Caller = { principal?: Principal | null; requestId?: string; log?: Logger | (() => Logger | undefined) };

/** One context per operation: loaders cache only within it. */
export function createContext({ services, bus, streams }: Shared, caller: Caller): GraphqlContext {
  const context: GraphqlContext = { services, bus, streams, loaders: createLoaders(services), principal: caller.principal ?? null, requestId: caller.requestId ?? "" };
  const log = caller.log;
  if (typeof log === "function") Object.defineProperty(context, "log", { get: log, enumerable: true });
  else context.log = log;
  return context;
}

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

/**
 * One context per operation: loaders cache only within it. Its loaders and logger are made on first use (most
 * operations need one loader or none, and log nothing), by one class rather than properties defined per request.
 */
class OperationContext {
  #loaders: Loaders | undefined;
  readonly #caller: Caller;
  readonly services: Services;
  readonly bus: EventBus;
  readonly streams: LiveStreams;
  readonly principal: Principal | null;
  readonly requestId: string;
  constructor({ services, bus, streams }: Shared, caller: Caller) {
    this.services = services;
    this.bus = bus;
    this.streams = streams;
    this.#caller = caller;
    this.principal = caller.principal ?? null;
    this.requestId = caller.requestId ?? "";
  }
  get loaders(): Loaders {
    return (this.#loaders ??= createLoaders(this.services));
  }
  get log(): Logger | undefined {
    const log = this.#caller.log;
    return typeof log === "function" ? log() : log;
  }
}

export function createContext(shared: Shared, caller: Caller): GraphqlContext {
  return new OperationContext(shared, caller);
}

// What every resolver receives: the domain services, this operation's loaders, who is calling, the event bus for
// subscriptions.
import type { Logger } from "pino";
import type { Principal } from "../auth/principal.js";
import type { EventBus } from "../store/events.js";
import type { LiveStreams } from "./streams.js";

/**
 * What every resolver receives as its context (generated/wiring.ts's `GraphqlContext` is this with the application's
 * `Services` and loaders); one per GraphQL operation. A type alias, not an interface, so graphql-http accepts it as a
 * record.
 */
export type GraphqlContext<Services = unknown, Loaders = object> = {
  /** the application's services, by tag */
  services: Services;
  /** this operation's DataLoaders (src/graphql/loaders.ts's createLoaders), made on first use */
  loaders: Loaders;
  /** who calls, as the bearer token says (null without one) */
  principal: Principal | null;
  /** the request's id (X-Request-Id), as its log lines and problems carry it */
  requestId: string;
  /** the request's logger (with its request id); undefined outside a request */
  log?: Logger;
  /** the bus domain changes are published on (subscriptions listen there) */
  bus: EventBus;
  /** live subscription streams (ended when the app closes) */
  streams: LiveStreams;
  /** SSE: the Last-Event-ID a reconnecting client sent, to resume a subscription after (`after` ?? this) */
  lastEventId?: string;
  /**
   * What lives as long as this operation, made by `make` the first time `key` is asked for (the relations' batch loaders).
   *
   * @param key - names the value within this operation
   * @param make - makes it, once
   */
  memo<T>(key: string, make: () => T): T;
};

interface Shared<Services = unknown, Loaders = object> {
  createLoaders: (services: Services) => Loaders;
  services: Services;
  bus: EventBus;
  streams: LiveStreams;
}

/** Who is calling, and the log of their request: a logger, or where to get one when something is logged. */
export type Caller = {
  principal?: Principal | null;
  requestId?: string;
  log?: Logger | (() => Logger | undefined);
  lastEventId?: string;
};

/**
 * One context per operation: loaders cache only within it. Its loaders and logger are made on first use (most
 * operations need one loader or none, and log nothing), by one class rather than properties defined per request.
 */
class OperationContext<Services, Loaders> {
  #loaders: Loaders | undefined;
  #memos: Map<string, unknown> | undefined;
  readonly #createLoaders: (services: Services) => Loaders;
  readonly #caller: Caller;
  readonly services: Services;
  readonly bus: EventBus;
  readonly streams: LiveStreams;
  readonly principal: Principal | null;
  readonly requestId: string;
  readonly lastEventId: string | undefined;
  constructor({ services, bus, streams, createLoaders }: Shared<Services, Loaders>, caller: Caller) {
    this.#createLoaders = createLoaders;
    this.services = services;
    this.bus = bus;
    this.streams = streams;
    this.#caller = caller;
    this.principal = caller.principal ?? null;
    this.requestId = caller.requestId ?? "";
    this.lastEventId = caller.lastEventId;
  }
  get loaders(): Loaders {
    return (this.#loaders ??= this.#createLoaders(this.services));
  }
  memo<T>(key: string, make: () => T): T {
    const memos = (this.#memos ??= new Map());
    let value = memos.get(key) as T | undefined;
    if (value === undefined) memos.set(key, (value = make()));
    return value;
  }
  get log(): Logger | undefined {
    const log = this.#caller.log;
    return typeof log === "function" ? log() : log;
  }
}

export function createContext<Services, Loaders>(
  shared: Shared<Services, Loaders>,
  caller: Caller,
): GraphqlContext<Services, Loaders> {
  return new OperationContext(shared, caller);
}

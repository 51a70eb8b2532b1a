// The event bus the domain publishes on and subscriptions listen to. The store's bus is durable (durable-bus.ts):
// each event is written to the event log in the transaction of the change it describes and delivered from there,
// with its position as id. The in-process bus below keeps nothing: the mock server's, and tests'.
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

/** Event type → its payload. Each domain module adds its own events (`declare module "twinspec/events"`). */
export interface EventMap {}

/** An event as the log holds it: its position (the id clients resume after), type and payload. */
export interface LoggedEvent<K extends keyof EventMap = keyof EventMap> {
  /** its position in the log (increasing in the order events were written) */
  position: number;
  /** the event's type: a key of EventMap */
  type: K;
  /** its payload */
  event: EventMap[K];
}

/**
 * Called with each event and its id (the decimal position in the log; "" on a bus that keeps no log).
 *
 * @param event - the event's payload
 * @param id - the event's id: its position in the log, in decimal ("" on a bus that keeps no log)
 */
export type EventListener<K extends keyof EventMap> = (event: EventMap[K], id: string) => void;

/** Where domain changes are published and subscriptions listen (`deps.bus`, `App.bus`): DurableBus or InProcessBus. */
export interface EventBus {
  /**
   * Publishes an event. With `db` a transaction, the event is written in it and delivered once it commits (nothing
   * when it rolls back): pass the transaction of the change the event describes. Without, it is written on its own
   * and delivered to this instance's listeners before the promise resolves.
   *
   * @param type - the event's type: a key of EventMap
   * @param event - its payload (JSON-serializable: the durable bus stores it as JSON)
   * @param db - the transaction of the change it describes; default none
   */
  publish<K extends keyof EventMap>(type: K, event: EventMap[K], db?: Kysely<Database>): Promise<void>;
  /**
   * Listens to events of one type from now on; returns the function that removes the listener.
   *
   * @param type - the events' type
   * @param listener - called with each event and its id
   */
  subscribe<K extends keyof EventMap>(type: K, listener: EventListener<K>): () => void;
  /**
   * Listeners currently attached to one event, or to every event (tests check subscriptions free theirs).
   *
   * @param type - the event type to count for; default every type
   */
  listenerCount(type?: keyof EventMap): number;
  /** stops delivering and removes every listener */
  close(): Promise<void>;
  /** A bus that reaches other instances resolves this once it can (the in-process bus has nothing to wait for). */
  ready?(): Promise<void>;
  /** false while such a bus cannot hear other instances (it is reconnecting); /readyz reports it. */
  readonly listening?: boolean;
  /**
   * A durable bus: up to `limit` events of `type` after `position`, in order.
   *
   * @param type - the events' type
   * @param position - the position to read after (an event id, as a number)
   * @param limit - most events returned
   */
  read?<K extends keyof EventMap>(type: K, position: number, limit: number): Promise<LoggedEvent<K>[]>;
  /** A durable bus: the last position its retention pruned (an id before it cannot be resumed from). */
  horizon?(): Promise<number>;
}

/**
 * An event bus that keeps nothing and reaches this process only: events go straight to its listeners, with "" as
 * their id (a stream cannot resume). The mock server's, and tests'.
 */
export class InProcessBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish<K extends keyof EventMap>(type: K, event: EventMap[K]) {
    this.emitter.emit(type, event, "");
  }

  subscribe<K extends keyof EventMap>(type: K, listener: EventListener<K>) {
    this.emitter.on(type, listener);
    return () => void this.emitter.off(type, listener);
  }

  listenerCount(type?: keyof EventMap) {
    if (type !== undefined) return this.emitter.listenerCount(type);
    return this.emitter.eventNames().reduce((sum, name) => sum + this.emitter.listenerCount(name), 0);
  }

  async close() {
    this.emitter.removeAllListeners();
  }
}

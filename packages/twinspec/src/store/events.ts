// The event bus the domain publishes on and subscriptions listen to. In-process for one instance (SQLite);
// a PostgreSQL LISTEN/NOTIFY bus implements the same interface for many instances.
import { EventEmitter } from "node:events";

/** Event type → its payload. Each domain module adds its own events (`declare module "twinspec/events"`). */
export interface EventMap {}

export interface EventBus {
  publish<K extends keyof EventMap>(type: K, event: EventMap[K]): Promise<void>;
  /** Returns the function that removes the listener. */
  subscribe<K extends keyof EventMap>(type: K, listener: (event: EventMap[K]) => void): () => void;
  /** Listeners currently attached to one event, or to every event (tests check subscriptions free theirs). */
  listenerCount(type?: keyof EventMap): number;
  close(): Promise<void>;
  /** A bus that reaches other instances resolves this once it can (the in-process bus has nothing to wait for). */
  ready?(): Promise<void>;
  /** false while such a bus cannot hear other instances (it is reconnecting); /readyz reports it. */
  readonly listening?: boolean;
}

export class InProcessBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish<K extends keyof EventMap>(type: K, event: EventMap[K]) {
    this.emitter.emit(type, event);
  }

  subscribe<K extends keyof EventMap>(type: K, listener: (event: EventMap[K]) => void) {
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

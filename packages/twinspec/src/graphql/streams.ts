// Event-bus listeners as async iterators for subscriptions. Each holds one bus listener from creation until it
// is returned (client completed or disconnected) or the app closes; the registry ends them all on close.
import type { EventBus, EventMap } from "../store/events.js";

/** Events kept for a consumer that reads slower than they arrive; beyond this the oldest are dropped. */
const MAX_QUEUED = 1000;

export class LiveStreams {
  private readonly live = new Set<AsyncGenerator<unknown>>();

  listen<K extends keyof EventMap>(bus: EventBus, type: K, accept: (event: EventMap[K]) => boolean): AsyncGenerator<EventMap[K]> {
    const queue: EventMap[K][] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const unsubscribe = bus.subscribe(type, (event) => {
      if (done || !accept(event)) return;
      queue.push(event);
      if (queue.length > MAX_QUEUED) queue.shift();
      wake?.();
    });
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      this.live.delete(stream);
      wake?.();
    };
    const stream: AsyncGenerator<EventMap[K]> = {
      async next() {
        while (!done && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        return done ? { done: true, value: undefined } : { done: false, value: queue.shift()! };
      },
      async return() {
        finish();
        return { done: true, value: undefined };
      },
      async throw(error) {
        finish();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    this.live.add(stream);
    return stream;
  }

  get size() {
    return this.live.size;
  }

  /** Ends every stream: their subscriptions complete and their listeners are freed. */
  async closeAll() {
    await Promise.all([...this.live].map((s) => s.return(undefined)));
  }
}

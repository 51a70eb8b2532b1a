// Event-bus listeners as async iterators for subscriptions. Each holds one bus listener from creation until it
// is returned (client completed or disconnected) or the app closes; the registry ends them all on close.
// A stream knows the id of the last event it yielded (`lastEventId`, sent with each payload: subscribe.ts). Given
// `after` (an id a client saw), it first reads the durable log from there, as fast as its reader takes it, then
// goes on with live events, skipping any it already yielded: no gap, no duplicate. A reader that falls more than
// maxQueued live events behind is not served a gap: its stream yields what it holds, then ends with
// EventsOverflowError naming the last id, to resume from.
import { EventsExpiredError, InvalidInputError } from "../domain/errors.js";
import type { EventBus, EventMap } from "../store/events.js";

/** Events kept for a consumer that reads slower than they arrive; beyond this its stream ends (to resume). */
const MAX_QUEUED = 1000;
/** Events read from the log at once while resuming. */
const BATCH = 200;
/** Live events held while the log is read; beyond, they are dropped and read from the log instead. */
const MAX_PENDING = 10_000;

export interface LiveStream<T> extends AsyncGenerator<T> {
  /** the id of the event last yielded (undefined: none yet, or a bus that keeps no log) */
  readonly lastEventId: string | undefined;
}

/** The stream's reader fell too far behind: it is to subscribe again after `lastEventId`. */
export class EventsOverflowError extends Error {
  readonly code = "EVENTS_OVERFLOW";
  constructor(readonly lastEventId: string | undefined) {
    super(
      `this subscriber fell more than ${MAX_QUEUED} events behind and was ended; subscribe again ` +
        (lastEventId
          ? `after the last event id it received, ${lastEventId} (argument after, or SSE's Last-Event-ID)`
          : "(it had received no event)"),
    );
  }
}

/** An event id as clients send it back: the decimal position of an event in the log. */
function parseEventId(id: string, argument = "after"): number {
  if (!/^(0|[1-9]\d{0,15})$/.test(id))
    throw new InvalidInputError([{ pointer: `/${argument}`, message: `"${id.slice(0, 40)}" is not an event id` }]);
  return Number(id);
}

export class LiveStreams {
  private readonly live = new Set<AsyncGenerator<unknown>>();

  constructor(private readonly maxQueued = MAX_QUEUED) {}

  /**
   * The events of `type` that `accept`; after the event `after` (an id this server gave) when set. Rejects with
   * EventsExpiredError when that id is older than the log's retention, InvalidInputError when it is no id.
   */
  async listen<K extends keyof EventMap>(
    bus: EventBus,
    type: K,
    accept: (event: EventMap[K]) => boolean,
    after?: string | null,
  ): Promise<LiveStream<EventMap[K]>> {
    const from = after == null || after === "" ? undefined : parseEventId(after);
    const durable = from !== undefined && bus.read !== undefined;
    if (durable && from < ((await bus.horizon?.()) ?? 0)) throw new EventsExpiredError(after!);
    const maxQueued = this.maxQueued;
    const queue: { event: EventMap[K]; id: string | undefined }[] = [];
    /** the last position taken (yielded or refused by accept): anything at or before it is skipped */
    let last = from ?? 0;
    let lastYielded = from === undefined ? undefined : after!;
    let replaying = durable;
    let pending: { event: EventMap[K]; id: string }[] = [];
    let pendingLost = false;
    let wake: (() => void) | undefined;
    let done = false;
    let overflowed = false;
    const offer = (event: EventMap[K], id: string) => {
      if (done || overflowed) return;
      if (id !== "") {
        const position = Number(id);
        if (position <= last) return;
        last = position;
      }
      if (!accept(event)) return;
      if (queue.length >= maxQueued) {
        overflowed = true;
        unsubscribe();
      } else queue.push({ event, id: id || undefined });
      wake?.();
    };
    const unsubscribe = bus.subscribe(type, (event, id) => {
      if (!replaying) return offer(event, id);
      if (pending.length < MAX_PENDING) pending.push({ event, id });
      else {
        pending = [];
        pendingLost = true;
      }
    });
    const replay = async () => {
      const batch = Math.min(BATCH, maxQueued);
      const events = await bus.read!(type, last, batch);
      for (const e of events) offer(e.event, String(e.position));
      if (events.length === batch || done) return;
      // Caught up with the log: what was published meanwhile is in `pending`, unless some had to be dropped (then
      // they are in the log, and the next read finds them).
      if (pendingLost) {
        pending = [];
        pendingLost = false;
        return;
      }
      replaying = false;
      for (const e of pending.splice(0)) offer(e.event, e.id);
    };
    const finish = () => {
      if (done) return;
      done = true;
      queue.length = 0;
      pending = [];
      unsubscribe();
      this.live.delete(stream);
      wake?.();
    };
    const stream: LiveStream<EventMap[K]> = {
      get lastEventId() {
        return lastYielded;
      },
      async next() {
        for (;;) {
          if (done) return { done: true, value: undefined };
          const next = queue.shift();
          if (next) {
            if (next.id !== undefined) lastYielded = next.id;
            return { done: false, value: next.event };
          }
          if (overflowed) {
            finish();
            throw new EventsOverflowError(lastYielded);
          }
          if (replaying) await replay();
          else await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
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

// The store's event bus: durable. publish writes the event to the log (event-log.ts) in the caller's transaction;
// delivery reads the log from the last position this instance delivered, in order, whenever something wakes it:
// a publish on this instance, another instance's notification (PostgreSQL NOTIFY, pg-events.ts), the listening
// connection coming back, or a poll every pollMs in case a wake was lost. A notification only wakes: an instance
// that missed some catches up from the log by itself. Events older than retentionMs are pruned in the background.
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { EventLog } from "./event-log.js";
import type { EventBus, EventListener, EventMap, LoggedEvent } from "./events.js";
import type { Database } from "./schema.js";

/** The event log's retention and polling (AppDeps.events; EVENT_RETENTION_MS, EVENT_POLL_MS through `serve`); every field is optional. */
export interface DurableBusOptions {
  /** how long events are kept for resuming (ms; default 24 h, EVENT_RETENTION_MS) */
  retentionMs?: number;
  /** how often old events are deleted (ms; default 10 min) */
  pruneEveryMs?: number;
  /** how often the log is read though nothing woke the bus (ms; default 1000) */
  pollMs?: number;
}

/** What tells a bus that other instances wrote events (PostgreSQL: LISTEN/NOTIFY). */
export interface Waker {
  /** called once: `wake` is to be called on every notification, and when listening starts again after a loss */
  start(wake: () => void): void;
  /** inside the writing transaction: wakes the listeners once it commits */
  notify(db: Kysely<Database>): Promise<void>;
  ready(): Promise<void>;
  readonly listening: boolean;
  close(): Promise<void>;
}

const BATCH = 500;
const DEFAULT_RETENTION_MS = 24 * 3600_000;

/**
 * The store's event bus (what `buildApp` uses unless given another): `publish` writes the event to the event log
 * (`twinspec_events`), in the caller's transaction when given one, and each instance delivers the log to its
 * listeners in order, with the event's position as its id; streams resume from the log (`read`) until the retention
 * prunes it.
 */
export class DurableBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly log: EventLog;
  /** the last position delivered to this instance's listeners; undefined until the log's head is read */
  private position: number | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private failing = false;
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  /** transactions that will wake the listeners already (one notification per transaction is enough) */
  private readonly notifying = new WeakSet<Kysely<Database>>();

  /**
   * Starts delivering at the log's head (what was written before is read only by resuming streams), polling and pruning.
   *
   * @param db - the store's Kysely handle, whose `twinspec_events` table is the log
   * @param logger - where failures to read or prune the log are logged
   * @param options - retention, prune interval and poll interval (`DurableBusOptions`); default none
   * @param waker - what tells it that other instances wrote events (PostgreSQL LISTEN/NOTIFY, as `buildApp` sets up);
   *   default none: woken by its own publishes and the poll only
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: DurableBusOptions = {},
    private readonly waker?: Waker,
  ) {
    this.log = new EventLog(db);
    // Delivery starts at the head: what was written before this instance started is read only by resuming streams.
    this.wake();
    this.timers.push(setInterval(() => this.wake(), options.pollMs ?? 1000).unref());
    this.timers.push(setInterval(() => void this.prune(), options.pruneEveryMs ?? 600_000).unref());
    waker?.start(() => this.wake());
  }

  async ready(): Promise<void> {
    await this.waker?.ready();
    await this.catchUp();
  }

  get listening(): boolean | undefined {
    return this.waker?.listening;
  }

  async publish<K extends keyof EventMap>(type: K, event: EventMap[K], db?: Kysely<Database>): Promise<void> {
    if (db?.isTransaction) {
      await this.log.append(db, type, event);
      // PostgreSQL's NOTIFY goes out at commit; on SQLite the read below waits for the transaction's connection.
      if (this.notifying.has(db)) return;
      this.notifying.add(db);
      if (this.waker) await this.waker.notify(db);
      else setImmediate(() => this.wake());
      return;
    }
    await (this.waker
      ? this.db
          .transaction()
          .execute(async (trx) => (await this.log.append(trx, type, event), await this.waker!.notify(trx)))
      : this.log.append(this.db, type, event));
    await this.catchUp();
  }

  subscribe<K extends keyof EventMap>(type: K, listener: EventListener<K>): () => void {
    this.emitter.on(type, listener);
    return () => void this.emitter.off(type, listener);
  }

  listenerCount(type?: keyof EventMap): number {
    if (type !== undefined) return this.emitter.listenerCount(type);
    return this.emitter.eventNames().reduce((sum, name) => sum + this.emitter.listenerCount(name), 0);
  }

  read<K extends keyof EventMap>(type: K, position: number, limit: number): Promise<LoggedEvent<K>[]> {
    return this.log.read(position, limit, type) as Promise<LoggedEvent<K>[]>;
  }

  horizon(): Promise<number> {
    return this.log.horizon();
  }

  /**
   * Deletes what is older than the retention (the background prune; tests call it); resolves to how many were deleted.
   *
   * @param now - the current time, in ms since the epoch (default Date.now())
   */
  async prune(now = Date.now()): Promise<number> {
    try {
      return await this.log.prune(now - (this.options.retentionMs ?? DEFAULT_RETENTION_MS));
    } catch (err) {
      this.logger.warn({ err }, "could not prune the event log");
      return 0;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.waker?.close();
    await this.running?.catch(() => {});
    this.emitter.removeAllListeners();
  }

  private wake() {
    if (this.closed) return;
    this.catchUp().catch((err) => {
      if (!this.failing) this.logger.warn({ err }, "could not read the event log; retrying");
      this.failing = true;
    });
  }

  /** Delivers everything written up to now: resolves after a read that started after the call. */
  private catchUp(): Promise<void> {
    if (!this.running) {
      this.running = this.deliver().finally(() => (this.running = undefined));
      return this.running;
    }
    return (this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.catchUp();
      }));
  }

  private async deliver() {
    if (this.position === undefined) {
      this.position = await this.log.head();
      return;
    }
    for (;;) {
      const events = await this.log.read(this.position, BATCH);
      for (const { position, type, event } of events) {
        if (this.closed) return;
        this.position = position;
        try {
          this.emitter.emit(type, event, String(position));
        } catch (err) {
          this.logger.error({ err, type, position }, "an event listener failed");
        }
      }
      if (events.length < BATCH) break;
    }
    if (this.failing) this.logger.info("reading the event log again");
    this.failing = false;
  }
}

// The durable event log (table twinspec_events, migration 004): an outbox the domain writes each event to in the
// transaction of its change. Positions only grow; readers read after the last one they saw. On PostgreSQL a
// sequence hands positions out before commit, so two writers could commit out of order and a reader pass a
// position that commits later: each appending transaction takes the log's advisory lock first and holds it until
// it ends, so positions become visible in order. (SQLite runs one writer at a time already.)
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./dialect.js";
import type { EventMap, LoggedEvent } from "./events.js";
import type { Database } from "./schema.js";

export class EventLog {
  /** transactions that hold the log's lock already (a transaction writing many events takes it once) */
  private readonly locked = new WeakSet<Kysely<Database>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** Writes the event in `db`: a transaction (PostgreSQL: one is opened when `db` is not). */
  async append<K extends keyof EventMap>(db: Kysely<Database>, type: K, event: EventMap[K]): Promise<void> {
    if (isPostgres(db)) {
      if (!db.isTransaction) return db.transaction().execute((trx) => this.append(trx, type, event));
      if (!this.locked.has(db))
        await sql`select pg_advisory_xact_lock(hashtext('twinspec_events:' || current_schema()))`.execute(db);
      this.locked.add(db);
    }
    await db
      .insertInto("twinspec_events")
      .values({ type, payload: JSON.stringify(event), created_at: Date.now() })
      .execute();
  }

  /** Up to `limit` events after `position`, in order; of one type, or all. */
  async read(position: number, limit: number, type?: keyof EventMap): Promise<LoggedEvent[]> {
    let query = this.db
      .selectFrom("twinspec_events")
      .select(["position", "type", "payload"])
      .where("position", ">", position);
    if (type !== undefined) query = query.where("type", "=", type);
    const rows = await query.orderBy("position").limit(limit).execute();
    // The payload as LoggedEvent's: with no application's events merged in (the package compiled alone), that is never.
    return rows.map((r) => ({
      position: Number(r.position),
      type: r.type as keyof EventMap,
      event: JSON.parse(r.payload) as LoggedEvent["event"],
    }));
  }

  /** The last position written (0: none yet). */
  async head(): Promise<number> {
    const row = await this.db
      .selectFrom("twinspec_events")
      .select((eb) => eb.fn.max("position").as("head"))
      .executeTakeFirst();
    return Math.max(Number(row?.head ?? 0), await this.horizon());
  }

  /** The last position pruned (0: none). */
  async horizon(): Promise<number> {
    const row = await this.db
      .selectFrom("twinspec_event_horizon")
      .select("pruned_through")
      .where("id", "=", 1)
      .executeTakeFirst();
    return Number(row?.pruned_through ?? 0);
  }

  /**
   * Deletes the events written before `before` (ms since the epoch), but none that a webhook endpoint has still to
   * deliver: the log is the deliveries' only source, so the slowest live endpoint's cursor, and any event asked to be
   * sent again, hold the prune back. Returns how many were deleted.
   */
  async prune(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom("twinspec_events")
        .select((eb) => eb.fn.max("position").as("last"))
        .where("created_at", "<", before)
        .executeTakeFirst();
      const slowest = await trx
        .selectFrom("twinspec_webhook_endpoints")
        .select((eb) => eb.fn.min("position").as("position"))
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      // A single event asked for again is kept until it is sent.
      const replayed = await trx
        .selectFrom("twinspec_webhook_redeliveries")
        .select((eb) => eb.fn.min("position").as("position"))
        .executeTakeFirst();
      const held = Math.min(
        slowest?.position == null ? Infinity : Number(slowest.position),
        replayed?.position == null ? Infinity : Number(replayed.position) - 1,
      );
      const through = Math.min(Number(last?.last ?? 0), held);
      if (!through) return 0;
      const deleted = await trx.deleteFrom("twinspec_events").where("position", "<=", through).executeTakeFirst();
      await trx
        .updateTable("twinspec_event_horizon")
        .set({ pruned_through: through })
        .where("id", "=", 1)
        .where("pruned_through", "<", through)
        .execute();
      return Number(deleted.numDeletedRows);
    });
  }
}

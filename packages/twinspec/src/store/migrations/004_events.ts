// Twinspec's migration 004_events: the durable event log (src/store/event-log.ts). Each event is written in the
// transaction of the change it describes; its position (the event id clients resume from) only grows. The
// horizon row remembers the last position pruned, so an id older than the retention is told apart from a gap.
import { sql, type Kysely } from "kysely";
import { text } from "../columns.js";
import { isPostgres } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("twinspec_events")
    .ifNotExists()
    .addColumn("position", isPostgres(db) ? "bigserial" : "integer", (c) =>
      isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("type", text(db), (c) => c.notNull())
    .addColumn("payload", text(db), (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("twinspec_events_created")
    .ifNotExists()
    .on("twinspec_events")
    .column("created_at")
    .execute();
  await db.schema
    .createTable("twinspec_event_horizon")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("pruned_through", "bigint", (c) => c.notNull())
    .execute();
  await sql`insert into twinspec_event_horizon (id, pruned_through) values (1, 0) on conflict do nothing`.execute(db);
}

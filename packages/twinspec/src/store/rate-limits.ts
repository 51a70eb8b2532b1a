// The rate_limits table: what each instance admitted per caller, budget and window, so instances on one PostgreSQL
// database share each caller's budget. The counting itself is src/rate-limit/limiter.ts; this is only the SQL: one
// statement records this instance's running counts (idempotent: the larger count wins, so a statement repeated after
// an error counts nothing twice) and answers what the other instances admitted in the same windows.
import { randomUUID } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { PostgresHandle } from "./postgres.js";
import type { Database } from "./schema.js";

/** A caller's count in one window of one budget. */
export interface SharedCount {
  /** "<budget>|<caller>" */
  key: string;
  /** start of the window, ms since the epoch */
  window: number;
  used: number;
}

export interface SharedCounts {
  /** records what this instance admitted so far in each window, and answers what the other instances did */
  report(own: (SharedCount & { expires: number })[]): Promise<SharedCount[]>;
  /** forgets windows that ended before `now` */
  sweep(now: number): Promise<void>;
}

export class RateLimitCounts implements SharedCounts {
  constructor(
    private readonly db: Kysely<Database>,
    /** this process, among the instances sharing the database */
    private readonly instance = randomUUID(),
  ) {}

  /**
   * Over the store's pool (which refuses at once while the database is down), through a Kysely of its own without
   * the store's hooks: the limiter's bookkeeping is not among the API's queries (db_queries_total, query spans).
   */
  static over(postgres: PostgresHandle): RateLimitCounts {
    return new RateLimitCounts(new Kysely<Database>({ dialect: new PostgresDialect({ pool: postgres.pool }) }));
  }

  async report(own: (SharedCount & { expires: number })[]): Promise<SharedCount[]> {
    if (own.length === 0) return [];
    const rows = sql.join(
      own.map((c) => sql`(${c.key}, ${c.window}::bigint, ${c.used}::bigint, ${c.expires}::bigint)`),
    );
    // The select reads the table as it was before the insert: the other instances' rows are all it needs.
    const { rows: others } = await sql<{ key: string; window_start: number | string; used: number | string }>`
      with mine (key, window_start, used, expires_at) as (values ${rows}),
      recorded as (
        insert into rate_limits (key, window_start, instance, used, expires_at)
        select key, window_start, ${this.instance}, used, expires_at from mine
        on conflict (key, window_start, instance) do update set used = greatest(rate_limits.used, excluded.used)
      )
      select r.key, r.window_start, sum(r.used) as used
      from rate_limits r join mine m on r.key = m.key and r.window_start = m.window_start
      where r.instance <> ${this.instance}
      group by r.key, r.window_start`.execute(this.db);
    return others.map((r) => ({ key: r.key, window: Number(r.window_start), used: Number(r.used) }));
  }

  async sweep(now: number): Promise<void> {
    await this.db.deleteFrom("rate_limits").where("expires_at", "<", now).execute();
  }
}

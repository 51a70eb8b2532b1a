// The rate_limits table: every instance's rate-limit counts added up, per caller, budget and window, so instances on
// one PostgreSQL database share each caller's budget. The counting itself is src/rate-limit/limiter.ts; this is
// only the SQL: one upsert adds a batch of counts and answers the totals.
import type { Kysely } from "kysely";
import type { SharedCount, SharedCounts } from "../rate-limit/limiter.js";
import type { Database } from "./schema.js";

export class RateLimitCounts implements SharedCounts {
  constructor(private readonly db: Kysely<Database>) {}

  async add(deltas: (SharedCount & { expires: number })[]): Promise<SharedCount[]> {
    if (deltas.length === 0) return [];
    const rows = await this.db
      .insertInto("rate_limits")
      .values(deltas.map((d) => ({ key: d.key, window_start: d.window, used: d.used, expires_at: d.expires })))
      .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet((eb) => ({ used: eb("rate_limits.used", "+", eb.ref("excluded.used")) })))
      .returning(["key", "window_start", "used"])
      .execute();
    // pg answers bigint columns as strings.
    return rows.map((r) => ({ key: r.key, window: Number(r.window_start), used: Number(r.used) }));
  }

  async sweep(now: number): Promise<void> {
    await this.db.deleteFrom("rate_limits").where("expires_at", "<", now).execute();
  }
}

// What /readyz reports: the database answers a query, and (PostgreSQL) the event bus hears other instances.
// A load balancer that routes only to ready instances then avoids one that would miss events or time out.
import { sql } from "kysely";
import type { Store } from "./database.js";
import type { EventBus } from "./events.js";

export interface Readiness {
  ready: boolean;
  body: Record<string, unknown>;
}

export async function readiness(store: Store, bus: EventBus): Promise<Readiness> {
  const body: Record<string, unknown> = { database: store.dialect };
  const pool = store.postgres?.pool;
  if (pool) body.pool = { open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.max };
  if (bus.listening !== undefined) body.events = bus.listening ? "listening" : "reconnecting";
  const started = performance.now();
  try {
    await sql`select 1`.execute(store.db);
    body.databaseLatencyMs = Math.round((performance.now() - started) * 10) / 10;
  } catch (error) {
    return { ready: false, body: { status: "unavailable", ...body, reason: `database: ${(error as Error).message}` } };
  }
  if (bus.listening === false)
    return {
      ready: false,
      body: { status: "unavailable", ...body, reason: "event bus is reconnecting to PostgreSQL" },
    };
  return { ready: true, body: { status: "ready", ...body } };
}

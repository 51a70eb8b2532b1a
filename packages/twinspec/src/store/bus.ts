// Picks the event bus for a store: in-process on SQLite (one instance owns the file), LISTEN/NOTIFY on
// PostgreSQL, where any number of instances share the database and must hear each other's events.
import type { Logger } from "pino";
import type { Store } from "./database.js";
import { InProcessBus, type EventBus } from "./events.js";
import type { PgBusOptions } from "./pg-events.js";

export function busFor(store: Store, logger: Logger, options?: PgBusOptions): EventBus {
  return store.postgres ? store.postgres.eventBus(logger.child({ component: "event-bus" }), options) : new InProcessBus();
}

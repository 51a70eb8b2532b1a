// The event bus of a store: durable on both databases (the event log, durable-bus.ts). On PostgreSQL, where any
// number of instances share the database, LISTEN/NOTIFY wakes each instance when another wrote events.
import type { Logger } from "pino";
import type { Store } from "./database.js";
import { DurableBus, type DurableBusOptions } from "./durable-bus.js";
import { PgListener, type PgBusOptions } from "./pg-events.js";

export function busFor(store: Store, logger: Logger, options: PgBusOptions & DurableBusOptions = {}): DurableBus {
  const log = logger.child({ component: "event-bus" });
  return new DurableBus(
    store.db,
    log,
    options,
    store.postgres ? new PgListener(store.postgres, log, options) : undefined,
  );
}

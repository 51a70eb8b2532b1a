// What every domain service is built from (createService in src/domain/<tag>.ts): the store, the event bus that
// carries changes to subscribers, the durable job queue, and the log.
import type { Logger } from "pino";
import type { Store } from "../store/database.js";
import type { EventBus } from "../store/events.js";
import type { JobQueue } from "../store/job-queue.js";

export interface ServiceDeps {
  store: Store;
  bus: EventBus;
  queue: JobQueue;
  log: Logger;
}

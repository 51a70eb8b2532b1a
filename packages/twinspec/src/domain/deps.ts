// What every domain service is built from (createService in src/domain/<tag>.ts): the store, the event bus that
// carries changes to subscribers, the durable job queue, the log, and every other service of the application.
import type { Logger } from "pino";
import type { Store } from "../store/database.js";
import type { EventBus } from "../store/events.js";
import type { JobQueue } from "../store/job-queue.js";

export interface ServiceDeps<Services = unknown> {
  store: Store;
  bus: EventBus;
  queue: JobQueue;
  log: Logger;
  /**
   * Every service of the application, by tag: typed with generated/wiring.ts's `Deps` (= ServiceDeps<Services>),
   * e.g. `deps.services.books.get(bookId)`. Filled in once all are built: call them at request time, not from a
   * constructor.
   */
  services: Services;
}

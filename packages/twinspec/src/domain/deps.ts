// What every domain service is built from (createService in src/domain/<tag>.ts): the store, the event bus that
// carries changes to subscribers, the durable job queue, the log, and every other service of the application.
import type { Logger } from "pino";
import type { Store } from "../store/database.js";
import type { EventBus } from "../store/events.js";
import type { JobQueue } from "../store/job-queue.js";

/**
 * What each domain module's `createService(deps)` is given (generated/wiring.ts's `Deps` is this with the
 * application's `Services`).
 */
export interface ServiceDeps<Services = unknown> {
  /** the open database (`deps.store.db`: the Kysely instance queries run on) */
  store: Store;
  /** where the domain publishes its changes (subscriptions listen there) */
  bus: EventBus;
  /** the durable job queue: register job kinds' handlers, kick it after enqueueing */
  queue: JobQueue;
  /** the application's logger */
  log: Logger;
  /**
   * Every service of the application, by tag: typed with generated/wiring.ts's `Deps` (= ServiceDeps<Services>),
   * e.g. `deps.services.books.get(bookId)`. Filled in once all are built: call them at request time, not from a
   * constructor.
   */
  services: Services;
}

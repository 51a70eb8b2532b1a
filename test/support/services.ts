// The domain over a store, without a server: the generated createServices with its own bus and job queue.
import pino from "pino";
import { createServices, type Services } from "../../generated/wiring.js";
import type { Store } from "../../packages/twinspec/src/store/database.js";
import { InProcessBus, type EventBus } from "../../packages/twinspec/src/store/events.js";
import { JobQueue, type QueueOptions } from "../../packages/twinspec/src/store/job-queue.js";

const silent = pino({ level: "silent" });

export function domainOn(
  store: Store,
  { bus = new InProcessBus(), queue: options = {} }: { bus?: EventBus; queue?: QueueOptions } = {},
): { services: Services; queue: JobQueue; bus: EventBus } {
  const queue = new JobQueue(store, silent, options);
  return { services: createServices({ store, bus, queue, log: silent }), queue, bus };
}

// The domain's services, built once per app over one store and one event bus; both transports receive
// this object. The job queue runs the domain's asynchronous work (checkout).
import type { Logger } from "pino";
import type { Store } from "../store/database.js";
import type { EventBus } from "../store/events.js";
import { JobQueue, type QueueOptions } from "../store/job-queue.js";
import { CartService } from "./carts.js";
import { runCheckout } from "./checkout.js";
import { CustomerService } from "./customers.js";
import { now } from "./ids.js";
import { JobService } from "./jobs.js";
import { OrderService } from "./orders.js";

export interface Services {
  customers: CustomerService;
  orders: OrderService;
  carts: CartService;
  jobs: JobService;
  bus: EventBus;
  queue: JobQueue;
}

export function createServices(store: Store, bus: EventBus, log: Logger, queueOptions: QueueOptions = {}): Services {
  const queue = new JobQueue(
    store.db,
    {
      checkout: async (trx, jobId, payload) => {
        const order = await runCheckout(trx, jobId, payload);
        return {
          result: { orderId: order.orderId },
          after: () => bus.publish("orderStatusChanged", { orderId: order.orderId, customerId: order.customerId, status: order.status, sentAt: now() }),
        };
      },
    },
    log,
    queueOptions,
  );
  return {
    customers: new CustomerService(store),
    orders: new OrderService(store, bus),
    carts: new CartService(store, () => queue.kick()),
    jobs: new JobService(store),
    bus,
    queue,
  };
}

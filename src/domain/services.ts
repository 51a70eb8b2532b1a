// The domain's services, built once per app over one store; both transports receive this object.
import type { Store } from "../store/database.js";
import { CartService } from "./carts.js";
import { CustomerService } from "./customers.js";
import { JobService } from "./jobs.js";
import { OrderService } from "./orders.js";

export interface Services {
  customers: CustomerService;
  orders: OrderService;
  carts: CartService;
  jobs: JobService;
}

export function createServices(store: Store): Services {
  return {
    customers: new CustomerService(store),
    orders: new OrderService(store),
    carts: new CartService(store),
    jobs: new JobService(store),
  };
}

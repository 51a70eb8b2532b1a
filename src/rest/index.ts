// All REST handlers, assembled; `RestHandlers` (not Partial) makes a missing operation a compile error.
import type { RestHandlers } from "../../generated/rest.js";
import type { Services } from "../domain/services.js";
import { cartHandlers } from "./carts.js";
import { customerHandlers } from "./customers.js";
import { jobHandlers } from "./jobs.js";
import { orderHandlers } from "./orders.js";

export function restHandlers(services: Services): RestHandlers {
  return { ...customerHandlers(services), ...orderHandlers(services), ...cartHandlers(services), ...jobHandlers(services) };
}

// All REST handlers, assembled; `RestHandlers` (not Partial) makes a missing operation a compile error.
import type { Kysely } from "kysely";
import type { RestHandlers } from "../../generated/rest.js";
import type { Database } from "../store/schema.js";
import { withIdempotency } from "./idempotency.js";
import type { Services } from "../domain/services.js";
import { cartHandlers } from "./carts.js";
import { customerHandlers } from "./customers.js";
import { jobHandlers } from "./jobs.js";
import { orderHandlers } from "./orders.js";

export function restHandlers(services: Services, db: Kysely<Database>): RestHandlers {
  return withIdempotency({ ...customerHandlers(services), ...orderHandlers(services), ...cartHandlers(services), ...jobHandlers(services) }, db);
}

// All REST handlers, assembled. Operations not implemented yet answer 501 through the generated wiring.
import type { RestHandlers } from "../../generated/rest.js";
import type { Services } from "../domain/services.js";
import { customerHandlers } from "./customers.js";

export function restHandlers(services: Services): Partial<RestHandlers> {
  return { ...customerHandlers(services) };
}

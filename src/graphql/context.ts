// What every resolver receives: the domain services, this request's loaders, who is calling.
import type { Principal } from "../auth/principal.js";
import type { Services } from "../domain/services.js";
import type { Loaders } from "./loaders.js";

// A type alias (not an interface) so graphql-http accepts it as a record.
export type GraphqlContext = {
  services: Services;
  loaders: Loaders;
  principal: Principal | null;
  requestId: string;
};

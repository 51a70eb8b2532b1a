// What the tests that walk operations need, read from the commerce service's specs by the kit (twinspec/testing:
// specOf): sending an operation with its sample body, and a "world" — one instance of every resource.
import { specOf } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

export const { send, newWorld } = specOf(definition);

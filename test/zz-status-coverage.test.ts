// Runs last (file order): every (operation, declared status) pair of openapi.yaml must have been produced by some
// test against a real server (the kit's gate, twinspec/testing). 408, 414 and 431 are answered by the HTTP layer
// before the operation is chosen, so no test server can tell which operation they were for: each is produced, for the
// server as a whole, by test/server/factory.test.ts.
import { statusCoverageGate } from "twinspec-dev/testing";
import { definition } from "../generated/wiring.js";

statusCoverageGate(definition);

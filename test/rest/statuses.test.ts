// Declared statuses that every operation of a kind can answer (204, 304, 400, 404, 406, 409, 410, 412, 413, 415,
// 422, 429, 500, 503), walked over every operation of openapi.yaml by the kit (twinspec/testing).
// Operation-specific outcomes live in their own tests.
import { describeStatusWalks } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeStatusWalks(definition);

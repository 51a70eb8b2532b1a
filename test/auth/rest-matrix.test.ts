// The authorization matrix for REST over every secured operation of openapi.yaml, run by the kit (twinspec/testing).
import { describeRestAuthMatrix } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeRestAuthMatrix(definition);

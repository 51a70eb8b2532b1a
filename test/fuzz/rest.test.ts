// A seeded fuzzer over every REST operation of openapi.yaml, run by the kit (twinspec/testing): no 5xx, every status
// declared and every answer matching its declaration, the server stays ready. A failure prints the seed and path
// that replay it (FUZZ_SEED, FUZZ_PATH; FUZZ_RUNS for more requests).
import { describeRestFuzz } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeRestFuzz(definition, { file: "test/fuzz/rest.test.ts" });

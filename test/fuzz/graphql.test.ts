// A seeded fuzzer over GraphQL over HTTP, built from schema.graphql and run by the kit (twinspec/testing): only the
// statuses GraphQL over HTTP answers, no 5xx, coded errors and never INTERNAL_SERVER_ERROR, data as selected, the
// server stays ready. A failure prints the seed and path that replay it (FUZZ_SEED, FUZZ_PATH).
import { describeGraphqlFuzz } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeGraphqlFuzz(definition, { file: "test/fuzz/graphql.test.ts" });

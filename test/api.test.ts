// The commerce service walked by Twinspec's test kit: every operation and root field from the specs alone, against a
// real server and database. The kit's other parts run in their own files here (test/auth/*-matrix.test.ts,
// test/rest/statuses.test.ts, test/fuzz/*.test.ts, test/zz-status-coverage.test.ts); an application with no
// tests of its own runs them all with walkApi(definition).
import { describeApiWalk } from "twinspec-dev/testing";
import { definition } from "../generated/wiring.js";

describeApiWalk(definition);

// The commerce service's business flows (workflows.arazzo.yaml: a paid order, a cart checked out twice, a merge, a
// stale If-Match), run by the test kit against a real server over REST; each status a step asks for counts toward
// the coverage gate (test/zz-status-coverage.test.ts).
import { describeScenarios } from "twinspec-dev/testing";
import { definition } from "../generated/wiring.js";

describeScenarios(definition);

// The commerce service's business flows (workflows.arazzo.yaml: a paid order, a cart checked out twice, a merge, a
// stale If-Match), run by the test kit against a real server over REST, then again over GraphQL (each step through its
// operation's paired root field; a step GraphQL cannot say, such as the unpaired mergeCustomer or an If-Match, over
// REST within that run); each status a REST step asks for counts toward the coverage gate (test/zz-status-coverage.test.ts).
import { describeScenarios } from "twinspec-dev/testing";
import { definition } from "../generated/wiring.js";

describeScenarios(definition);

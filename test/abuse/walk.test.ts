// Hostile requests derived from openapi.yaml and schema.graphql, run by the kit (twinspec/testing): a multipart body
// cut off mid-part, JSON nested far too deep, over-long URLs and headers, GraphQL fan-outs and floods, more graphql-ws
// connections than one address may hold. Each must be refused with a code, in bounded time, the server still healthy.
import { describeAbuseWalk } from "twinspec-dev/testing";
import { definition } from "../../generated/wiring.js";

describeAbuseWalk(definition);

// Every operation of openapi.yaml and every root field of schema.graphql, walked by Twinspec's test kit against a
// real server on an ephemeral port and a fresh SQLite database: each answer's status must be one the spec declares
// and its body must match; hostile requests derived from the specs (cut-off uploads, deep JSON, GraphQL floods, …) must
// each be refused with a code. An operation whose handler is still a stub (501 / NOT_IMPLEMENTED) is reported as pending.
import { walkApi } from "twinspec-dev/testing";
import { definition } from "../generated/wiring.js";

walkApi(definition);

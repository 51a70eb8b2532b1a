// What the tests that walk the fixture's operations and root fields need, read from its specs by the kit
// (src/testing: specOf): sample bodies, argument values, resources, and send().
import type { GraphQLSchema } from "graphql";
import { specOf, type Operation as KitOperation } from "../../../twinspec-dev/src/testing/spec.js";
import { resources } from "../fixture/generated/contract.js";
import { definition } from "../fixture/generated/wiring.js";

export { resources };
export { pathParams } from "../../../twinspec-dev/src/testing/spec.js";
export type Operation = KitOperation;

const spec = specOf(definition);
export const operations = spec.operations;
export const graphqlSchema: GraphQLSchema = spec.graphqlSchema;
export const { argumentValues, send } = spec;

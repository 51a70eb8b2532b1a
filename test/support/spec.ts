// What the tests that walk operations and root fields need, read from the commerce service's specs by the kit
// (twinspec/testing: specOf): sample bodies, resources and owners, and a "world" — one instance of every resource.
import type { GraphQLSchema } from "graphql";
import { specOf, type Operation as KitOperation } from "twinspec/testing";
import { graphqlInputs, graphqlOwnership, pairs, resources, restOwnership, type ResourceTag } from "../../generated/contract.js";
import { definition } from "../../generated/wiring.js";

export { graphqlInputs, graphqlOwnership, pairs, resources, restOwnership };
export { declares, pathParams, settle, urlOf } from "twinspec/testing";
export type Operation = KitOperation;

const spec = specOf(definition);
export const operations = spec.operations;
export const graphqlSchema: GraphQLSchema = spec.graphqlSchema;
export const { sampleBody, argumentValues, send, newWorld } = spec;
export const creatorOf = (resource: ResourceTag) => spec.creatorOf(resource);
export const resourceOfParam = (name: string) => spec.resourceOfParam(name) as [ResourceTag, (typeof resources)[ResourceTag]] | undefined;

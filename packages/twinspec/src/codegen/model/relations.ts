// Relations: a GraphQL field of a resource's type that lists another resource's instances under it (Order.notes),
// paired (x-graphql) with the REST collection that lists them (GET /orders/{orderId}/notes). `generate` writes its
// resolver itself, over a per-request batch loader, and the compiler asks the listed resource's domain module for
// exactly one batched method, listByParents(parentIds, fields?): no relation can be resolved one query per parent.
import { getNamedType, getNullableType, isListType, type GraphQLField } from "graphql";
import type { Operation } from "./operations.js";
import type { Resource } from "./resource.js";

export interface Relation {
  /** the tag of the resource listed (whose domain module has listByParents) */
  child: string;
  /** the parent's id property, read from the parent's model: the key the loader batches on */
  by: string;
}

/** The relation a non-root field of `typeName` is, when it lists a resource through its paired REST collection. */
export function relationOf(typeName: string, field: GraphQLField<unknown, unknown>, op: Operation | undefined, bySchema: Map<string, Resource>, byTag: Map<string, Resource>): Relation | undefined {
  const parent = bySchema.get(typeName);
  const child = byTag.get(op?.tags[0] ?? "");
  if (!op || op.method.toLowerCase() !== "get" || !parent || !child || child === parent) return undefined;
  if (!op.path.includes(`{${parent.id}}`) || !isListType(getNullableType(field.type)) || getNamedType(field.type).name !== child.schema) return undefined;
  return { child: child.tag, by: parent.id };
}

// Relations: a GraphQL field of one type that reads another resource's instances, paired (x-graphql) with the REST
// operation that reads them. Two kinds: a list under a parent (Book.reviews, paired with the collection
// GET /books/{bookId}/reviews), and the one instance an object names (Review.author, paired with the lookup
// GET /authors/{authorId}, after the lookup's own root field: x-graphql: [Query.author, Review.author]).
// `generate` writes the resolver of each itself, over a per-request batch loader, and the compiler asks the domain
// module read for exactly one batched method — listByParents(parentIds, fields?) for a list, getMany(ids) for one
// instance: no relation can be resolved one query per parent.
import { getNamedType, getNullableType, isListType, isNonNullType, type GraphQLField } from "graphql";
import type { Operation } from "./operations.js";
import type { Resource } from "./resource.js";

export interface Relation {
  /** "list": the instances under a parent (listByParents); "one": the instance an object names (getMany) */
  kind: "list" | "one";
  /** the tag of the resource read (whose domain module has the batched method) */
  resource: string;
  /**
   * The property of the object the field is on that the loader batches on: a list's parent id, read from the parent;
   * for "one", the property naming the instance (named like the resource's id, `Review.authorId`)
   */
  by: string;
  /** "one" on a nullable field: a missing instance answers null, not NOT_FOUND */
  nullable?: true;
}

/**
 * The relation a non-root field of `typeName` is, when it reads a resource through its paired operation: a list of
 * the operation's resource under a collection path naming `typeName`'s resource id, or one instance of the lookup's
 * resource that `typeName` names by a property (`props`: `typeName`'s REST properties) named like that resource's id.
 */
export function relationOf(
  typeName: string,
  field: GraphQLField<unknown, unknown>,
  op: Operation | undefined,
  props: Set<string> | undefined,
  bySchema: Map<string, Resource>,
  byTag: Map<string, Resource>,
): Relation | undefined {
  const read = byTag.get(op?.tags[0] ?? "");
  if (!op || op.method.toLowerCase() !== "get" || !read || getNamedType(field.type).name !== read.schema)
    return undefined;
  if (!isListType(getNullableType(field.type))) {
    if (field.args.length > 0 || !op.path.endsWith(`/{${read.id}}`) || !props?.has(read.id)) return undefined;
    return {
      kind: "one",
      resource: read.tag,
      by: read.id,
      ...(isNonNullType(field.type) ? {} : { nullable: true as const }),
    };
  }
  const parent = bySchema.get(typeName);
  if (!parent || parent === read || !op.path.includes(`{${parent.id}}`)) return undefined;
  return { kind: "list", resource: read.tag, by: parent.id };
}

/** Why a field x-graphql names after the first is no relation of `op` (only relation fields may share an operation). */
export function notARelation(coordinate: string, op: Operation, byTag: Map<string, Resource>): string {
  const read = byTag.get(op.tags[0] ?? "");
  const what = read
    ? `one ${read.schema}, named by a property ${read.id} of its type, or a list of them under a collection path`
    : "a resource (its tag has no x-resource)";
  return `${op.operationId}: x-graphql names ${coordinate} after its first entry, so it must be a relation the operation reads: a field without arguments returning ${what}`;
}

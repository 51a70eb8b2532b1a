// Which fields a query selects under a field (through fragments), so a batch load reads only the columns they need.
// Computed once per field of a parsed document: graphql-jit (and graphql-js) hand the same fieldNodes array to every
// call of the resolver for that document.
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

const cache = new WeakMap<readonly FieldNode[], readonly string[]>();

export function selectedFields(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): readonly string[] {
  let fields = cache.get(info.fieldNodes);
  if (!fields) {
    const names = new Set<string>();
    const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) names.add(selection.name.value);
        else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, seen);
        else if (!seen.has(selection.name.value)) visit(info.fragments[selection.name.value]?.selectionSet, new Set(seen).add(selection.name.value));
      }
    };
    for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
    names.delete("__typename");
    fields = [...names].sort();
    cache.set(info.fieldNodes, fields);
  }
  return fields;
}

// Which fields a query selects under a field (through fragments), so a batch load reads only the columns they need.
// Computed once per field of a parsed document: graphql-jit (and graphql-js) hand the same fieldNodes array to every
// call of the resolver for that document.
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from "graphql";

const cache = new WeakMap<readonly FieldNode[], readonly string[]>();

/**
 * The names of the fields a query selects under the field being resolved (through fragments and inline fragments,
 * `__typename` left out), sorted: what a projection reads (`projection(selectedFields(info))`). The same array for
 * every call on one field of one parsed document, so it can key a loader.
 *
 * @param info - the resolver's fourth argument
 */
export function selectedFields(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): readonly string[] {
  let fields = cache.get(info.fieldNodes);
  if (!fields) {
    const names = new Set<string>();
    const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) names.add(selection.name.value);
        else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, seen);
        else if (!seen.has(selection.name.value))
          visit(info.fragments[selection.name.value]?.selectionSet, new Set(seen).add(selection.name.value));
      }
    };
    for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
    names.delete("__typename");
    fields = [...names].sort();
    cache.set(info.fieldNodes, fields);
  }
  return fields;
}

const reached = new WeakMap<readonly FieldNode[], boolean>();

/**
 * Whether some field selected below this one (through fragments, at any depth) is of this field's own type, as an
 * author's books' author is of an authors list's. Then what this field reads may answer that field too (a
 * lookup primed with it, primeLookup), and must hold every field a lookup holds rather than the selected ones.
 *
 * @param info - the resolver's fourth argument
 */
export function selectsOwnType(
  info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments" | "returnType" | "schema">,
): boolean {
  let found = reached.get(info.fieldNodes);
  if (found === undefined) {
    const own = getNamedType(info.returnType);
    const visit = (
      set: SelectionSetNode | undefined,
      parent: GraphQLNamedType | undefined,
      seen: Set<string>,
    ): boolean => {
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) {
          const field =
            parent && (isObjectType(parent) || isInterfaceType(parent))
              ? parent.getFields()[selection.name.value]
              : undefined;
          if (!field) continue;
          const type = getNamedType(field.type);
          if (type === own || visit(selection.selectionSet, type, seen)) return true;
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const on = selection.typeCondition ? info.schema.getType(selection.typeCondition.name.value) : parent;
          if (visit(selection.selectionSet, on, seen)) return true;
        } else if (!seen.has(selection.name.value)) {
          const fragment = info.fragments[selection.name.value];
          const on = fragment && info.schema.getType(fragment.typeCondition.name.value);
          if (fragment && visit(fragment.selectionSet, on, new Set(seen).add(selection.name.value))) return true;
        }
      }
      return false;
    };
    found = info.fieldNodes.some((node) => visit(node.selectionSet, own, new Set()));
    reached.set(info.fieldNodes, found);
  }
  return found;
}

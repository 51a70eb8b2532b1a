// Resources owned through a parent (x-resource owner: { through: <parent tag>, by: <property naming the parent> }):
// the chain is checked once here, and each operation or root field of such a resource gets the rule the framework
// applies before its handler or resolver runs — the parent it names (or its own instance's parent) must be live.
import type { ParentRule } from "twinspec/internals";
import type { Resource } from "./resource.js";

// The rule is the runtime's own (definition.ts): what generated/contract.ts hands the framework.
export type { ParentRule };

/** The rule of an operation or root field of `own` (its tag's resource) that names `names` (path parameters or arguments). */
export function parentRule(
  own: Resource | undefined,
  names: string[],
  byTag: Map<string, Resource>,
): ParentRule | undefined {
  if (!own?.through) return undefined;
  if (names.includes(own.id)) return { resource: own.tag, from: own.id, of: "parents" };
  const parent = byTag.get(own.through);
  return parent && names.includes(parent.id) ? { resource: parent.tag, from: parent.id, of: "itself" } : undefined;
}

/** Each parent an owner goes through is a resource, the property naming it is that resource's id, and no chain loops. */
export function checkParents(resources: Resource[], problem: (pointer: string, message: string) => void): void {
  const byTag = new Map(resources.map((r) => [r.tag, r]));
  resources.forEach((r) => {
    if (!r.through) return;
    const where = "/tags";
    const parent = byTag.get(r.through);
    if (!parent)
      return problem(where, `tag ${r.tag}: owner.through names ${r.through}, which is no tag with x-resource`);
    if (parent.id !== r.owner)
      problem(where, `tag ${r.tag}: owner.by must be ${parent.id}, the id of its parent ${parent.tag}, not ${r.owner}`);
    const seen = [r.tag];
    for (let at: Resource | undefined = parent; at; at = at.through ? byTag.get(at.through) : undefined) {
      if (seen.includes(at.tag))
        return problem(where, `tag ${r.tag}: its owners go round in a loop (${[...seen, at.tag].join(" → ")})`);
      seen.push(at.tag);
    }
  });
}

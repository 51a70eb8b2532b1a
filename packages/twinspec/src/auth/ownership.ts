// The ownership rule, in one place: a token acts only on what its subject owns (admin: on everything). Which data a
// request acts on is declared in the specs (generated/contract.ts: the identifying path parameter or argument, or
// a whole collection); who owns an instance, the resource's domain service says (generated/wiring.ts ownerLookup).
import type { OwnerLookup, Ownership } from "../definition.js";
import { hasNul } from "../runtime/text.js";
import { actsFor, isAdmin, type Principal } from "./principal.js";

export type { OwnerLookup };

/** Why the principal may not act: on every owner's data at once, or on data another subject owns. */
export type Refusal = "collection" | "someone-else";

/** An instance whose owner decides: the one case the rule cannot settle without a lookup. */
export interface OwnedInstance {
  resource: string;
  id: string;
}

/**
 * What the rule says of what `values` name, before anything is looked up: allowed (undefined), refused, or the
 * instance whose owner decides (ownerRefusal). Admins and operations without an owner rule never look anything up.
 */
export function ownership(
  principal: Principal,
  rule: Ownership | undefined,
  values: Record<string, unknown>,
): Refusal | OwnedInstance | undefined {
  if (isAdmin(principal) || !rule || rule.kind === "none") return undefined;
  if (rule.kind === "collection") return "collection";
  const id = values[rule.from];
  // An id holding U+0000 names nothing any store holds, and is refused as bad input once allowed (runtime/text.ts).
  return typeof id === "string" && !hasNul(id) ? { resource: rule.resource, id } : undefined;
}

/** The rule's one lookup: refused unless the instance's owner is the principal (an instance nobody owns, or none, passes). */
export async function ownerRefusal(
  principal: Principal,
  instance: OwnedInstance,
  owners: OwnerLookup,
): Promise<Refusal | undefined> {
  const owner = await owners(instance.resource, instance.id);
  return owner === undefined || owner === null || actsFor(principal, owner) ? undefined : "someone-else";
}

// The ownership rule, in one place: a token acts only on what its subject owns (admin: on everything). Which data a
// request acts on is declared in the specs (generated/contract.ts: the identifying path parameter or argument, or
// a whole collection); who owns an instance, the resource's domain service says (generated/wiring.ts ownerLookup).
import type { OwnerLookup, Ownership } from "../definition.js";
import { actsFor, isAdmin, type Principal } from "./principal.js";

export type { OwnerLookup };

/** Why the principal may not act: on every owner's data at once, or on data another subject owns. */
export type Refusal = "collection" | "someone-else";

/**
 * Why the principal may not act on what `values` name (undefined: it may). The one ownership check of both
 * transports: REST's authorizer and GraphQL's root fields with an owner rule await it.
 */
export async function refusal(principal: Principal, ownership: Ownership | undefined, values: Record<string, unknown>, owners: OwnerLookup): Promise<Refusal | undefined> {
  if (isAdmin(principal) || !ownership || ownership.kind === "none") return undefined;
  if (ownership.kind === "collection") return "collection";
  const id = values[ownership.from];
  if (typeof id !== "string") return undefined;
  const owner = await owners(ownership.resource, id);
  return owner === undefined || owner === null || actsFor(principal, owner) ? undefined : "someone-else";
}

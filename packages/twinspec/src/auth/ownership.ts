// The ownership rule, in one place: a token acts only on what its subject owns (admin: on everything). Which data a
// request acts on is declared in the specs (generated/contract.ts: the identifying path parameter or argument, or
// a whole collection); who owns an instance, the resource's domain service says (generated/wiring.ts ownerLookup).
import type { OwnerLookup, Ownership } from "../definition.js";
import { actsFor, isAdmin, type Principal } from "./principal.js";

export type { OwnerLookup };

/** Why the principal may not act: on every owner's data at once, or on data another subject owns. */
export type Refusal = "collection" | "someone-else";

export function refusal(principal: Principal, ownership: Ownership | undefined, values: Record<string, unknown>, owners: OwnerLookup): Refusal | undefined | Promise<Refusal | undefined> {
  // At once (no promise) unless an owner must be looked up: admins and operations without an owner rule, every request.
  if (isAdmin(principal) || !ownership || ownership.kind === "none") return undefined;
  if (ownership.kind === "collection") return "collection";
  const id = values[ownership.from];
  if (typeof id !== "string") return undefined;
  return ownerRefusal(principal, owners(ownership.resource, id));
}

async function ownerRefusal(principal: Principal, lookup: ReturnType<OwnerLookup>): Promise<Refusal | undefined> {
  const owner = await lookup;
  return owner === undefined || owner === null || actsFor(principal, owner) ? undefined : "someone-else";
}

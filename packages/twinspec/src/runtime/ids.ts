// Opaque, URL-safe identifiers with the readable prefix openapi.yaml gives each resource (x-resource idPrefix). They
// sort in creation order (time, then a per-process sequence within the same millisecond), so lists ordered by
// (created_at, id) keep that order. generated/contract.ts binds them to the application's resources.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let seq = 0;

/**
 * A new id with `prefix` ("bok" → "bok_…"): the prefix, "_", then 20 URL-safe characters, the first 12 sorting in
 * creation order (the time, then a per-process sequence within a millisecond), the last 8 random.
 *
 * @param prefix - the resource's id prefix (x-resource idPrefix)
 */
export function newIdWithPrefix(prefix: string): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const time = ms.toString(36).padStart(9, "0");
  const sequence = seq.toString(36).padStart(3, "0");
  const random = randomBytes(6).toString("base64url");
  return `${prefix}_${time}${sequence}${random}`;
}

/**
 * newId and derivedId for the resources of one application, and the URL of an instance (Location headers, links):
 * what generated/contract.ts exports, bound to the application's resources.
 *
 * @param resources - each resource by tag: its id prefix, identifying path parameter and path template (ContractFacts.resources)
 * @returns `newId(resource)`, `derivedId(resource, id)` and `location(resource, id)`
 */
export function idsFor<Tag extends string>(
  resources: Readonly<Record<Tag, { idPrefix: string; id: string; path: string }>>,
) {
  return {
    /** A new id of `resource` (its prefix, then an id that sorts in creation order). */
    newId: (resource: Tag): string => newIdWithPrefix(resources[resource].idPrefix),
    /** The id of `resource` that stands for `id` of another resource (same suffix): e.g. what a background job creates, named after the job. */
    derivedId: (resource: Tag, id: string): string =>
      `${resources[resource].idPrefix}_${id.slice(id.indexOf("_") + 1)}`,
    /** The path of one instance: `resource`'s path template with `id` (URL-encoded) in it ("/books/bok_…"). */
    location: (resource: Tag, id: string): string => {
      const { path, id: param } = resources[resource];
      return path.replace(`{${param}}`, encodeURIComponent(id));
    },
  };
}

/** The current time as ISO-8601 in UTC with milliseconds ("2026-01-31T12:00:00.000Z"): what created_at and updated_at hold. */
export const now = () => new Date().toISOString();

// Opaque, URL-safe identifiers with the readable prefix openapi.yaml gives each resource (x-resource idPrefix). They
// sort in creation order (time, then a per-process sequence within the same millisecond), so lists ordered by
// (created_at, id) keep that order. generated/contract.ts binds them to the application's resources.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let seq = 0;

/** A new id with `prefix` ("cus" → "cus_…"). */
export function newIdWithPrefix(prefix: string): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const time = ms.toString(36).padStart(9, "0");
  const sequence = seq.toString(36).padStart(3, "0");
  const random = randomBytes(6).toString("base64url");
  return `${prefix}_${time}${sequence}${random}`;
}

/** newId and derivedId for the resources of one application, and the URL of an instance (Location headers, links). */
export function idsFor<Tag extends string>(resources: Readonly<Record<Tag, { idPrefix: string; id: string; path: string }>>) {
  return {
    newId: (resource: Tag): string => newIdWithPrefix(resources[resource].idPrefix),
    /** The id of `resource` that stands for `id` of another resource (same suffix): e.g. what a background job creates, named after the job. */
    derivedId: (resource: Tag, id: string): string => `${resources[resource].idPrefix}_${id.slice(id.indexOf("_") + 1)}`,
    location: (resource: Tag, id: string): string => {
      const { path, id: param } = resources[resource];
      return path.replace(`{${param}}`, encodeURIComponent(id));
    },
  };
}

export const now = () => new Date().toISOString();

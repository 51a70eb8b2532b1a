// Opaque, URL-safe identifiers with the readable prefix openapi.yaml gives each resource (x-resource idPrefix). They
// sort in creation order (time, then a per-process sequence within the same millisecond), so lists ordered by
// (created_at, id) keep that order.
import { randomBytes } from "node:crypto";
import { resources, type ResourceTag } from "../../generated/contract.js";

let lastMs = 0;
let seq = 0;

export function newId(resource: ResourceTag): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const time = ms.toString(36).padStart(9, "0");
  const sequence = seq.toString(36).padStart(3, "0");
  const random = randomBytes(6).toString("base64url");
  return `${resources[resource].idPrefix}_${time}${sequence}${random}`;
}

/** The id of `resource` that stands for `id` of another resource (same suffix): e.g. the order a job places. */
export function derivedId(resource: ResourceTag, id: string): string {
  return `${resources[resource].idPrefix}_${id.slice(id.indexOf("_") + 1)}`;
}

export const now = () => new Date().toISOString();

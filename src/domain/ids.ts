// Opaque, URL-safe identifiers with a readable prefix per resource. They sort in creation order (time, then a
// per-process sequence within the same millisecond), so lists ordered by (created_at, id) keep that order.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let seq = 0;

export function newId(prefix: "cus" | "ord" | "crt" | "job"): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const time = ms.toString(36).padStart(9, "0");
  const sequence = seq.toString(36).padStart(3, "0");
  const random = randomBytes(6).toString("base64url");
  return `${prefix}_${time}${sequence}${random}`;
}

export const now = () => new Date().toISOString();

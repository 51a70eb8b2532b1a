// What a write may assume about the current version of its target (from If-Match, If-Unmodified-Since).
export interface Preconditions {
  /** the write happens only if the current version is one of these */
  versions?: number[];
  /** the write happens only if the resource has not changed after this instant (ms since epoch) */
  unmodifiedSince?: number;
}

export function holds(pre: Preconditions | undefined, current: { version: number; updatedAt: string }): boolean {
  if (!pre) return true;
  if (pre.versions && !pre.versions.includes(current.version)) return false;
  // HTTP dates have second precision: compare whole seconds.
  if (pre.unmodifiedSince !== undefined && Math.floor(Date.parse(current.updatedAt) / 1000) > Math.floor(pre.unmodifiedSince / 1000)) return false;
  return true;
}

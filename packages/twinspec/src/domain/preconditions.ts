// What a write may assume about the current version of its target: the conditional headers of RFC 9110 §13 as the
// domain sees them (versions, not ETags), evaluated inside the write's transaction, so no update is ever lost.
/** The conditional headers of a write, as versions (RestContext.preconditions): what `holds` checks. */
export interface Preconditions {
  /** If-Match: only if the current version is one of these; "*": only if there is a current one */
  match?: number[] | "*";
  /** If-None-Match: only if the current version is none of these; "*": only if there is none */
  noneMatch?: number[] | "*";
  /** If-Unmodified-Since (ms since epoch); considered only without `match` */
  unmodifiedSince?: number;
}

/**
 * RFC 9110 §13.2.2 for a state-changing request, against the current state: whether the write may go on (false:
 * throw PreconditionError). Call it inside the write's transaction, on the row read there.
 *
 * @param pre - the request's preconditions (`ctx.preconditions`); undefined: none, the write goes on
 * @param current - the instance's current version and updatedAt (ISO-8601); undefined: there is none
 */
export function holds(
  pre: Preconditions | undefined,
  current: { version: number; updatedAt: string } | undefined,
): boolean {
  if (!pre) return true;
  if (pre.match !== undefined) {
    if (!current || (pre.match !== "*" && !pre.match.includes(current.version))) return false;
  } else if (pre.unmodifiedSince !== undefined && current) {
    // HTTP dates have second precision: compare whole seconds.
    if (Math.floor(Date.parse(current.updatedAt) / 1000) > Math.floor(pre.unmodifiedSince / 1000)) return false;
  }
  if (pre.noneMatch !== undefined && current && (pre.noneMatch === "*" || pre.noneMatch.includes(current.version)))
    return false;
  return true;
}

// Conditional requests (RFC 9110 §13) as a transport rule: the four headers parsed once per request, and their
// evaluation against what a GET answered, in the RFC's order (§13.2.2). Writes hand the parsed headers to the
// handler, whose domain checks them against the stored version inside its transaction.

/** The conditional headers of a request, parsed: entity-tag lists (or "*") and HTTP dates (ms since epoch). */
export interface Conditions {
  /** If-Match's entity tags, quotes and W/ kept (`['"v3"']`), or "*" */
  ifMatch?: string[] | "*";
  /** If-None-Match's entity tags, or "*" */
  ifNoneMatch?: string[] | "*";
  /** If-Modified-Since, in ms since the epoch (an invalid date is ignored) */
  ifModifiedSince?: number;
  /** If-Unmodified-Since, in ms since the epoch (an invalid date is ignored) */
  ifUnmodifiedSince?: number;
}

export const CONDITIONAL_HEADERS = ["If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since"] as const;

/** Entity tags of an If-Match / If-None-Match value ("*" stays "*"); tags keep their quotes and W/ prefix. */
function entityTags(value: string): string[] | "*" {
  if (value.trim() === "*") return "*";
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** An HTTP date, or undefined for an invalid one (which RFC 9110 says to ignore). */
const httpDate = (value: string | undefined) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

export function parseConditions(
  get: (name: string) => string | undefined,
  declared: ReadonlySet<string>,
): Conditions | undefined {
  const conditions: Conditions = {};
  const has = (name: string) => declared.has(name) && get(name) !== undefined;
  if (has("If-Match")) conditions.ifMatch = entityTags(get("If-Match")!);
  if (has("If-None-Match")) conditions.ifNoneMatch = entityTags(get("If-None-Match")!);
  if (has("If-Modified-Since")) conditions.ifModifiedSince = httpDate(get("If-Modified-Since"));
  if (has("If-Unmodified-Since")) conditions.ifUnmodifiedSince = httpDate(get("If-Unmodified-Since"));
  return Object.values(conditions).some((v) => v !== undefined) ? conditions : undefined;
}

const weak = (tag: string) => tag.replace(/^W\//, "");
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * What a GET or HEAD answer becomes under the request's conditions (§13.2.2): 412 when If-Match (or, without it,
 * If-Unmodified-Since) fails; 304 when If-None-Match (or, without it, If-Modified-Since) says the client's copy is
 * current; otherwise the answer stands.
 */
export function evaluateRead(
  conditions: Conditions,
  etag: string | undefined,
  lastModified: string | undefined,
): 200 | 304 | 412 {
  const modified = httpDate(lastModified);
  if (conditions.ifMatch !== undefined) {
    // Strong comparison: a weak tag never matches.
    const ok =
      etag !== undefined &&
      (conditions.ifMatch === "*" || (!etag.startsWith("W/") && conditions.ifMatch.includes(etag)));
    if (!ok) return 412;
  } else if (
    conditions.ifUnmodifiedSince !== undefined &&
    modified !== undefined &&
    seconds(modified) > seconds(conditions.ifUnmodifiedSince)
  ) {
    return 412;
  }
  if (conditions.ifNoneMatch !== undefined) {
    const matches =
      etag !== undefined &&
      (conditions.ifNoneMatch === "*" || conditions.ifNoneMatch.some((t) => weak(t) === weak(etag)));
    return matches ? 304 : 200;
  }
  if (
    conditions.ifModifiedSince !== undefined &&
    modified !== undefined &&
    seconds(modified) <= seconds(conditions.ifModifiedSince)
  )
    return 304;
  return 200;
}

// U+0000 in text a client sends: PostgreSQL's text type cannot hold it (SQLite's can), so a request carrying it would
// fail inside a query. It is refused as bad input wherever it arrives — JSON (runtime/json.ts), path and query
// parameters (runtime/index.ts), GraphQL string literals (graphql/operation.ts) — alike on both databases, and an id
// holding it is never looked up (auth/ownership.ts).

/** How messages name the character. */
export const NUL = "U+0000 (NUL)";
/** Why it is refused, as the end of a message. */
export const NUL_REFUSED = "no text here may contain it; leave it out";

/** Whether a string holds U+0000. */
export const hasNul = (text: string): boolean => text.includes("\0");

/** Whether a decoded parameter holds U+0000: a string, or one of an array's or an object's string values. */
export function paramHoldsNul(value: unknown): boolean {
  if (typeof value === "string") return hasNul(value);
  if (Array.isArray(value)) return value.some(paramHoldsNul);
  return typeof value === "object" && value !== null && Object.values(value).some(paramHoldsNul);
}

// RFC 8288 Link header for the next page of a list.
import type { Page } from "../domain/pagination.js";

/** `query.limit` is the request's, or the spec's default (the runtime fills it in). */
export function pageLink(path: string, query: { limit: number }, page: Page<unknown>): { Link?: string } {
  if (!page.nextCursor) return {};
  const params = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor });
  return { Link: `<${path}?${params}>; rel="next"` };
}

// RFC 8288 Link header for the next page of a list.
import type { Page } from "../domain/pagination.js";

/**
 * The `Link` header of a list's answer: `<path?limit=…&cursor=…>; rel="next"` when there is a next page, else none
 * (spread it into the handler's headers).
 *
 * @param path - the list's path as requested, without the query ("/members/mem_…/loans")
 * @param query - the request's query: `limit` is the request's, or the spec's default (the runtime fills it in)
 * @param page - the page answered (its `nextCursor`)
 */
export function pageLink(path: string, query: { limit: number }, page: Page<unknown>): { Link?: string } {
  if (!page.nextCursor) return {};
  const params = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor });
  return { Link: `<${path}?${params}>; rel="next"` };
}

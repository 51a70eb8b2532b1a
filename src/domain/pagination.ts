// Keyset pagination over (created_at, id): stable under inserts, opaque to clients.
import { sql, type SelectQueryBuilder } from "kysely";
import { InvalidInputError } from "./errors.js";

export interface PageRequest {
  /** page size, within the bounds the specs give (limit / first) */
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

function decodeCursor(cursor: string, pointer = "/cursor"): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) return value as [string, string];
  } catch {
    // fall through to the error below
  }
  throw new InvalidInputError([{ pointer, message: "is not a cursor this API issued" }]);
}

/**
 * One page of `query` in (created_at, id) order, starting after the cursor's position: the keyset query every
 * list of the domain shares. `idColumn` breaks ties between rows created in the same millisecond.
 */
export async function keysetPage<DB, TB extends keyof DB, Row extends { created_at: string }, T>(
  query: SelectQueryBuilder<DB, TB, Row>,
  idColumn: string,
  idOf: (row: Row) => string,
  page: PageRequest,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const limit = page.limit;
  if (page.cursor) {
    const [createdAt, id] = decodeCursor(page.cursor);
    query = query.where(sql<boolean>`(created_at > ${createdAt} or (created_at = ${createdAt} and ${sql.ref(idColumn)} > ${id}))`);
  }
  const rows = await query.orderBy(sql.ref("created_at")).orderBy(sql.ref(idColumn)).limit(limit + 1).execute();
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return { items: kept.map(toItem), nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, idOf(last)) : null };
}

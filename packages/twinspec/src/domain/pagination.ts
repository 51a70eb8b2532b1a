// Keyset pagination over (created_at, id): stable under inserts, opaque to clients.
import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import { prepared } from "../store/prepared.js";
import { InvalidInputError } from "./errors.js";
import type { Projection } from "./projection.js";

/** Which page a list asks for (REST's `limit` and `cursor` query parameters, GraphQL's `first` and `after`). */
export interface PageRequest {
  /** page size, within the bounds the specs give (limit / first) */
  limit: number;
  /** where the page starts: the `nextCursor` of the page before; none for the first page (a cursor this API did not issue is an InvalidInputError at "/cursor") */
  cursor?: string;
}

/** One page of a list. */
export interface Page<T> {
  /** the page's items, in (created_at, id) order: at most the `limit` asked for */
  items: T[];
  /** the cursor of the next page, or null on the last one */
  nextCursor: string | null;
}

/**
 * The opaque cursor of a position in (created_at, id) order, as keysetPager makes them: for a list the domain pages
 * by hand.
 *
 * @param createdAt - the row's created_at (ISO-8601)
 * @param id - the row's id
 */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

function decodeCursor(cursor: string, pointer = "/cursor"): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string"))
      return value as [string, string];
  } catch {
    // fall through to the error below
  }
  throw new InvalidInputError([{ pointer, message: "is not a cursor this API issued" }]);
}

/**
 * Pages of a query in (created_at, id) order, each starting after the cursor's position: the keyset query every
 * list of the domain shares. The two queries (first page, page after a cursor) are built and compiled once.
 *
 * @param db the store's Kysely handle (`deps.store.db`)
 * @param base the rows to page, unordered and unlimited: a function of the list's own parameters (`scope`, e.g. the
 *   parent whose children are listed: `(memberId) => db.selectFrom("loans").selectAll().where("member_id", "=", memberId)`),
 *   or of none (`() => live rows`)
 * @param sample example values of those parameters, one per parameter of `base` (`[]` when it has none; `["x"]` for
 *   one id): `base` is called with them once, to compile the two queries before any request (its values are never
 *   read back)
 * @param idColumn the id column, which breaks ties between rows created in the same millisecond; qualified
 *   ("table.id"), it qualifies created_at too, for a base query that joins
 * @param idOf a row's id (the cursor is made of its created_at and this)
 * @param toItem a row as the page's item (the domain model)
 * @returns `(page, ...scope) => Promise<Page<T>>`: the page of `page.limit` items after `page.cursor` (from the start
 *   without one), with the cursor of the next page or null on the last one
 */
export function keysetPager<DB, TB extends keyof DB, Row extends { created_at: string }, T, Scope extends string[]>(
  db: Kysely<any>,
  base: (...scope: Scope) => SelectQueryBuilder<DB, TB, Row>,
  sample: Scope,
  idColumn: string,
  idOf: (row: Row) => string,
  toItem: (row: Row) => T,
) {
  // A qualified id column ("reviews.review_id") qualifies created_at alike: a base query joining another table
  // (a parent, to filter on it) has two of them.
  const createdAtColumn = sql.ref(
    `${idColumn.includes(".") ? idColumn.slice(0, idColumn.lastIndexOf(".") + 1) : ""}created_at`,
  );
  const ordered = (query: SelectQueryBuilder<DB, TB, Row>, limit: number) =>
    query.orderBy(createdAtColumn).orderBy(sql.ref(idColumn)).limit(limit);
  const first = prepared(
    db,
    (...args: [...Scope, number]) => ordered(base(...(args.slice(0, -1) as Scope)), args.at(-1) as number),
    [...sample, 21] as [...Scope, number],
  );
  const after = prepared(
    db,
    (...args: [...Scope, string, string, string, number]) => {
      const [createdAt, sameCreatedAt, id, limit] = args.slice(-4) as [string, string, string, number];
      const query = base(...(args.slice(0, -4) as Scope)).where(
        sql<boolean>`(${createdAtColumn} > ${createdAt} or (${createdAtColumn} = ${sameCreatedAt} and ${sql.ref(idColumn)} > ${id}))`,
      );
      return ordered(query, limit);
    },
    [...sample, "c1", "c2", "i", 21] as [...Scope, string, string, string, number],
  );
  return async (page: PageRequest, ...scope: Scope): Promise<Page<T>> => {
    const limit = page.limit;
    let rows: Row[];
    if (page.cursor) {
      const [createdAt, id] = decodeCursor(page.cursor);
      rows = await after(...scope, createdAt, createdAt, id, limit + 1);
    } else {
      rows = await first(...scope, limit + 1);
    }
    const kept = rows.length > limit ? rows.slice(0, limit) : rows;
    const last = kept.at(-1);
    return {
      items: kept.map(toItem),
      nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, idOf(last)) : null,
    };
  };
}

/**
 * Pages of a query in whichever projection of its model a caller asks for (the fields a GraphQL selection needs,
 * projection.ts): `base(columns)` is the keyset query selecting those columns, and created_at besides (the cursor is
 * made of it). Each projection's pager (its two compiled queries) is made on first use; a model's fields bound them.
 * `sample`, `idColumn` and `idOf` are keysetPager's.
 *
 * @param db the store's Kysely handle (`deps.store.db`)
 * @param base given the columns to select (the projection's, created_at added), returns keysetPager's `base`: the
 *   rows to page as a function of the list's own parameters
 * @param sample example values of those parameters, one per parameter (`[]` when there are none), to compile the
 *   queries before any request (keysetPager's `sample`)
 * @param idColumn the id column, which breaks ties of created_at; qualified ("table.id") for a base query that joins
 * @param idOf a row's id (the cursor is made of its created_at and this)
 * @returns `(projection, page, ...scope) => Promise<Page<Model>>`, the page read through that projection
 */
export function projectedPager<Row extends { created_at: string }, Scope extends string[]>(
  db: Kysely<any>,
  base: (columns: string[]) => (...scope: Scope) => SelectQueryBuilder<any, any, Row>,
  sample: Scope,
  idColumn: string,
  idOf: (row: Row) => string,
) {
  const pagers = new Map<string, (page: PageRequest, ...scope: Scope) => Promise<Page<unknown>>>();
  return <Model>(
    projection: Pick<Projection<Row, Model>, "columns" | "key" | "map">,
    page: PageRequest,
    ...scope: Scope
  ): Promise<Page<Model>> => {
    let pager = pagers.get(projection.key);
    if (!pager) {
      pager = keysetPager(
        db,
        base([...new Set<string>([...projection.columns, "created_at"])]),
        sample,
        idColumn,
        idOf,
        projection.map,
      );
      pagers.set(projection.key, pager);
    }
    return pager(page, ...scope) as Promise<Page<Model>>;
  };
}

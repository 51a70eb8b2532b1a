// Batch reads for loaders: rows of many parents fetched in one query, handed back per parent.
import type { Kysely } from "kysely";
import { preparedInColumns } from "../store/columnar.js";
import type { Projection } from "./projection.js";

/**
 * Every id of `ids` mapped to its rows (possibly none), in the order the rows came: what a batch loader answers.
 *
 * @param ids - the keys asked for (a loader's keys); each is in the map, with [] when no row has it
 * @param rows - the rows read for them
 * @param keyOf - the key a row belongs to (its parent's id); a row whose key is not in `ids` is dropped
 * @param toItem - a row as the item handed back
 */
export function groupBy<Row, T>(
  ids: readonly string[],
  rows: Row[],
  keyOf: (row: Row) => string,
  toItem: (row: Row) => T,
): Map<string, T[]> {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(toItem(row));
  return groups;
}

/**
 * The live rows (deleted_at null) of a table for many parents in one query, oldest first (the order of an index on
 * (parentColumn, created_at, idColumn): no sort step), each mapped by the projection of the fields asked for. The
 * query is compiled once per number of parents and set of columns. Returns `(parentIds, fields?) => Promise<Map>`:
 * each parent's models (every parent in the map, [] without rows), read through `projection(fields)`.
 *
 * @param db - the store's Kysely handle (`deps.store.db`)
 * @param table - the table the rows are in; it has `deleted_at` and `created_at` columns
 * @param parentColumn - the column naming a row's parent; the projection must select it (one of its `keys`)
 * @param idColumn - the rows' id column, which breaks ties between rows created in the same millisecond
 * @param projection - the model's projections (what `projections(readers, keys)` returns)
 */
export function liveRowsByParent<Row, Model>(
  db: Kysely<any>,
  table: string,
  parentColumn: string,
  idColumn: string,
  projection: (fields?: readonly string[]) => Projection<Row, Model>,
) {
  // Rows come as arrays of values (no row object per row): the projection maps them to models by position.
  const read = preparedInColumns(db, table, (among, columns) =>
    db
      .selectFrom(table)
      .select(columns)
      .where(among(parentColumn))
      .where("deleted_at", "is", null)
      .orderBy(parentColumn)
      .orderBy("created_at")
      .orderBy(idColumn),
  );
  return async (parentIds: readonly string[], fields?: readonly string[]): Promise<Map<string, Model[]>> => {
    const { columns, key, mapValues } = projection(fields);
    const rows = parentIds.length === 0 ? [] : await read(parentIds, columns, key);
    const parentAt = columns.indexOf(parentColumn as keyof Row & string);
    return groupBy(parentIds, rows, (values) => values[parentAt] as string, mapValues);
  };
}

// Batch reads for loaders: rows of many parents fetched in one query, handed back per parent.
import type { Kysely } from "kysely";
import { preparedInRaw } from "../store/prepared.js";
import type { Projection } from "./projection.js";

/** Every id of `ids` mapped to its rows (possibly none), in the order the rows came. */
export function groupBy<Row, T>(ids: readonly string[], rows: Row[], keyOf: (row: Row) => string, toItem: (row: Row) => T): Map<string, T[]> {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(toItem(row));
  return groups;
}

/**
 * The live rows of a customer-owned table for many customers in one query, oldest first (the order of the
 * table's (customer_id, created_at, id) index: no sort step), each mapped by the projection of the fields asked
 * for. The query is compiled once per number of customers and set of columns.
 */
export function liveRowsOfCustomers<Row extends { customer_id: string }, Model>(
  db: Kysely<any>,
  table: string,
  idColumn: string,
  projection: (fields?: readonly string[]) => Projection<Row, Model>,
) {
  // Rows come as arrays of values (no row object per row): the projection maps them to models by position.
  const read = preparedInRaw(db, (ids, columns: string[]) =>
    db.selectFrom(table).select(columns).where("customer_id", "in", ids).where("deleted_at", "is", null).orderBy("customer_id").orderBy("created_at").orderBy(idColumn),
  );
  return async (customerIds: readonly string[], fields?: readonly string[]): Promise<Map<string, Model[]>> => {
    const { columns, key, mapValues } = projection(fields);
    const rows = customerIds.length === 0 ? [] : await read(customerIds, columns, key);
    const customerAt = columns.indexOf("customer_id");
    return groupBy(customerIds, rows, (values) => values[customerAt] as string, mapValues);
  };
}

// Batch reads for loaders: rows of many parents fetched in one query, handed back per parent.

/** Every id of `ids` mapped to its rows (possibly none), in the order the rows came. */
export function groupBy<Row, T>(ids: readonly string[], rows: Row[], keyOf: (row: Row) => string, toItem: (row: Row) => T): Map<string, T[]> {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(toItem(row));
  return groups;
}

// Reading only what a caller needs: each field of a model says which column it comes from and how; a projection
// is the columns and the row → model mapping for some of those fields (always with the keys that identify and
// relate the model). A batch read for a GraphQL list then selects three columns instead of nine.

/** Where a field comes from: a column, and how its value becomes the field's (the value itself when `read` is absent). */
type FieldReader<Row, V> = {
  [C in keyof Row & string]: { column: C; read: (value: Row[C]) => V } | (Row[C] extends V ? { column: C; read?: undefined } : never);
}[keyof Row & string];
export type FieldReaders<Row, Model> = { [K in keyof Model]-?: FieldReader<Row, Model[K]> };

export interface Projection<Row, Model> {
  columns: (keyof Row & string)[];
  /** the columns as one string: what tells two projections' reads apart (made once) */
  key: string;
  /** the model with the projected fields only: read no other field of it */
  map(row: Row): Model;
  /**
   * The same from the row's values in the order of `columns` (better-sqlite3's raw rows): a batch of 500 rows then
   * allocates 500 models, not 500 row objects besides (−15 % of a 50 × 10 GraphQL list's server time).
   */
  mapValues(values: readonly unknown[]): Model;
}

export function projections<Row, Model>(readers: FieldReaders<Row, Model>, keys: readonly (keyof Model & string)[]) {
  const all = Object.keys(readers) as (keyof Model & string)[];
  const cache = new Map<string, Projection<Row, Model>>();
  /** The projection of `fields` (names that are not fields of the model are ignored); every field when undefined. */
  return (fields?: readonly string[]): Projection<Row, Model> => {
    const key = fields ? fields.join(",") : "*";
    let projection = cache.get(key);
    if (!projection) {
      const wanted = fields ? all.filter((f) => keys.includes(f) || fields.includes(f)) : all;
      const columns = [...new Set(wanted.map((f) => readers[f].column))];
      const chosen = wanted.map((f) => {
        const { column, read } = readers[f] as { column: keyof Row & string; read?: (value: unknown) => unknown };
        return { field: f, column, index: columns.indexOf(column), read };
      });
      projection = {
        columns,
        key: columns.join(","),
        // Indexed loops, and no call for a field that is its column's value: these run once per row read.
        map: (row) => {
          const model = {} as Record<string, unknown>;
          for (let i = 0; i < chosen.length; i++) {
            const { field, column, read } = chosen[i];
            model[field] = read ? read(row[column]) : row[column];
          }
          return model as Model;
        },
        mapValues: (values) => {
          const model = {} as Record<string, unknown>;
          for (let i = 0; i < chosen.length; i++) {
            const { field, index, read } = chosen[i];
            model[field] = read ? read(values[index]) : values[index];
          }
          return model as Model;
        },
      };
      if (cache.size < 100) cache.set(key, projection);
    }
    return projection;
  };
}

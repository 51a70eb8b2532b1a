// Reading only what a caller needs: each field of a model says which column it comes from and how; a projection
// is the columns and the row → model mapping for some of those fields (always with the keys that identify and
// relate the model). A batch read for a GraphQL list then selects three columns instead of nine.

/** Where a field comes from: a column, and how its value becomes the field's (the value itself when `read` is absent). */
type FieldReader<Row, V> = {
  [C in keyof Row & string]:
    | { column: C; read: (value: Row[C]) => V }
    | (Row[C] extends V ? { column: C; read?: undefined } : never);
}[keyof Row & string];
/**
 * Where each field of a model comes from, for `projections`: per field, `{ column }` (the column's value as it is)
 * or `{ column, read }` (the value turned into the field's by `read`).
 */
export type FieldReaders<Row, Model> = { [K in keyof Model]-?: FieldReader<Row, Model[K]> };

/** Some fields of a model: the columns they are read from, and the row → model mapping of those fields only. */
export interface Projection<Row, Model> {
  /** the columns to select: those of the fields asked for, and of the model's keys */
  columns: (keyof Row & string)[];
  /** the columns as one string: what tells two projections' reads apart (made once) */
  key: string;
  /** the model with the projected fields only: read no other field of it */
  map: (
    /** a row holding (at least) `columns` */
    row: Row,
  ) => Model;
  /**
   * The same from the row's values in the order of `columns` (better-sqlite3's raw rows): a batch of 500 rows then
   * allocates 500 models, not 500 row objects besides.
   *
   * @param values - a row's values, in the order of `columns`
   */
  mapValues: (values: readonly unknown[]) => Model;
}

/**
 * Projections of one model: returns `(fields?) => Projection`, the projection of the fields a caller asks for
 * (`selectedFields(info)`; names that are not fields of the model are ignored) and of `keys` always, or of every
 * field without `fields`. Each projection is made once and cached.
 *
 * @param readers - every field of the model and where it comes from
 * @param keys - the fields every projection has whatever is asked: those that identify and relate the model (its
 *   id, its parent's id)
 */
export function projections<Row, Model>(readers: FieldReaders<Row, Model>, keys: readonly (keyof Model & string)[]) {
  const all = Object.keys(readers) as (keyof Model & string)[];
  if (all.includes("__proto__" as keyof Model & string)) throw new Error("a model field may not be named __proto__");
  // By the names asked for (a caller's selection: bounded, as callers choose it), and by the model's fields they come
  // to (at most one per subset of the model's fields: the schema bounds it, whatever callers ask).
  const cache = new Map<string, Projection<Row, Model>>();
  const byFields = new Map<string, Projection<Row, Model>>();
  /** The projection of `fields` (names that are not fields of the model are ignored); every field when undefined. */
  return (fields?: readonly string[]): Projection<Row, Model> => {
    const key = fields ? fields.join(",") : "*";
    let projection = cache.get(key);
    if (!projection) {
      const wanted = fields ? all.filter((f) => keys.includes(f) || fields.includes(f)) : all;
      projection = byFields.get(wanted.join(","));
      if (!projection) {
        const columns = [...new Set(wanted.map((f) => readers[f].column))];
        const chosen = wanted.map((f) => {
          const { column, read } = readers[f] as { column: keyof Row & string; read?: (value: unknown) => unknown };
          return { field: f, column, index: columns.indexOf(column), read };
        });
        projection = {
          columns,
          key: columns.join(","),
          map: mapping(chosen, "row"),
          mapValues: mapping(chosen, "values"),
        };
        byFields.set(wanted.join(","), projection);
      }
      if (cache.size < 100) cache.set(key, projection);
    }
    return projection;
  };
}

type Chosen = { field: string; column: string; index: number; read?: (value: unknown) => unknown };

/** The row → model mapping of the chosen fields; `from` says where the values are: a row object by column name, or raw values by position. */
function mapping<Source, Model>(chosen: Chosen[], from: "row" | "values"): (source: Source) => Model {
  const fields = chosen.map((c) => c.field);
  const keys = chosen.map((c) => (from === "row" ? c.column : c.index));
  const reads = chosen.map((c) => c.read);
  return (source) => {
    const values = source as Record<string | number, unknown>;
    const model: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const read = reads[i];
      model[fields[i]] = read === undefined ? values[keys[i]] : read(values[keys[i]]);
    }
    return model as Model;
  };
}

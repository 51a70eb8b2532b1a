// A batch read of many short rows answered as one row: each selected column's values as one JSON array, in the
// rows' order, which the read turns back into rows. The drivers build every value of every row through their own
// per-value path (better-sqlite3's calls into V8, pg's parser); one JSON text a column is parsed by V8 at once. Only
// columns whose every value JSON carries exactly are read so (SQLite: TEXT affinity; PostgreSQL: text, varchar,
// uuid, bool, int2, int4, int8, json, jsonb); any other column, and its whole read, goes row by row. The arrays
// keep the order of the rows the ordered subquery feeds the aggregate: both databases aggregate them as they come.
import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import { isPostgres } from "./dialect.js";
import { preparedInRaw, type AmongIds } from "./prepared.js";

type Build = (among: AmongIds, columns: string[]) => SelectQueryBuilder<any, any, any>;
type Read = (ids: readonly string[], columns: string[], key: string) => Promise<unknown[][]>;

/**
 * `build`'s rows (a select from `table` of exactly `columns`, ordered as they must come back) for the ids, each as
 * its values in the order of `columns`: what `preparedInRaw` reads, read as JSON columns where every column allows.
 */
export function preparedInColumns(db: Kysely<any>, table: string, build: Build): Read {
  const rows = preparedInRaw(db, build);
  const postgres = isPostgres(db);
  const asColumns = preparedInRaw(db, (among, columns: string[]) =>
    db
      .selectFrom(build(among, columns).as("rows"))
      .select(columns.map((column, i) => jsonArrayOf(postgres, `rows.${column}`).as(`c${i}`))),
  );
  const asJson: Read = (ids, columns, key) => asColumns(ids, columns, key).then(([texts]) => rowsOf(texts));
  const exactType = postgres
    ? (type: string | undefined) => type !== undefined && EXACT_PG_TYPES.has(type)
    : textAffinity;
  // The table's declared types, asked for now: before the first read, so that no read waits for them, and a
  // request's queries are its own. A table not found is read row by row; a lookup that failed (the database
  // unreachable) is tried again by the next read, which meanwhile goes row by row.
  const lookUp = () => columnTypes(db, postgres, table).catch(() => undefined);
  let types = lookUp();
  /** the read of each set of columns (by its key), chosen at its first read */
  const chosen = new Map<string, Read>();
  const choose: Read = async (ids, columns, key) => {
    const declared = await types;
    if (!declared) {
      types = lookUp();
      return rows(ids, columns, key);
    }
    const read = columns.every((column) => exactType(declared.get(column))) ? asJson : rows;
    chosen.set(key, read);
    return read(ids, columns, key);
  };
  return (ids, columns, key) => (chosen.get(key) ?? choose)(ids, columns, key);
}

/** The values of `column` across the rows, as the text of one JSON array ("[]" for none). */
function jsonArrayOf(postgres: boolean, column: string) {
  return postgres
    ? sql<string>`coalesce(json_agg(${sql.ref(column)}), '[]')::text`
    : sql<string>`json_group_array(${sql.ref(column)})`;
}

/** The rows back from their columns' JSON arrays. */
function rowsOf(texts: unknown[]): unknown[][] {
  const columns = texts.map((text) => JSON.parse(text as string) as unknown[]);
  const count = columns[0]?.length ?? 0;
  const rows = new Array<unknown[]>(count);
  for (let r = 0; r < count; r++) {
    const row = new Array<unknown>(columns.length);
    for (let c = 0; c < columns.length; c++) row[c] = columns[c][r];
    rows[r] = row;
  }
  return rows;
}

/** PostgreSQL types whose JSON form parses back to what the store's pg reads give (its int8 is read as a number). */
const EXACT_PG_TYPES = new Set(["text", "varchar", "uuid", "bool", "int2", "int4", "int8", "json", "jsonb"]);

/** Each column's declared type (PostgreSQL: its type's name; SQLite: the declaration, upper case). */
async function columnTypes(db: Kysely<any>, postgres: boolean, table: string): Promise<Map<string, string>> {
  const { rows } = postgres
    ? await sql<{ name: string; type: string }>`
        select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
        where a.attrelid = to_regclass(${table}) and a.attnum > 0 and not a.attisdropped`.execute(db)
    : await sql<{
        name: string;
        type: string;
      }>`select name, upper(type) as type from pragma_table_xinfo(${table})`.execute(db);
  return new Map(rows.map(({ name, type }) => [name, type]));
}

/** SQLite's affinity rules (datatype3.html, 3.1): TEXT when the declared type names no INT but CHAR, CLOB or TEXT. */
function textAffinity(declared: string | undefined): boolean {
  return declared !== undefined && !declared.includes("INT") && /CHAR|CLOB|TEXT/.test(declared);
}

// better-sqlite3 compiles SQL on every prepare(); Kysely prepares each query it runs. The same few SQL texts
// repeat (Kysely parameterizes values), so keep their compiled statements: a bounded map, oldest dropped first.
import type SQLite from "better-sqlite3";

export function cachingStatements(db: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "prepare") return Reflect.get(target, property, receiver);
      return (sql: string) => {
        let statement = cache.get(sql);
        if (!statement) {
          statement = prepare(sql);
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          cache.set(sql, statement);
        }
        return statement;
      };
    },
  });
}

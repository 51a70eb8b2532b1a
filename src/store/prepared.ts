// A hot query built and compiled once: Kysely otherwise rebuilds and recompiles its operation tree on every call.
// The query must take exactly `args` as its parameters, in order (checked once, at build time).
import type { Compilable, Kysely } from "kysely";

export function prepared<Args extends unknown[], Row>(db: Kysely<any>, build: (...args: Args) => Compilable<Row>, sample: Args) {
  const compiled = build(...sample).compile();
  if (JSON.stringify(compiled.parameters) !== JSON.stringify(sample)) {
    throw new Error(`prepared query's parameters ${JSON.stringify(compiled.parameters)} are not its arguments ${JSON.stringify(sample)}`);
  }
  return async (...args: Args): Promise<Row[]> => (await db.executeQuery<Row>({ ...compiled, parameters: args })).rows;
}

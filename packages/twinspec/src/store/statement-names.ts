// PostgreSQL named statements for the queries `prepared` compiles once (prepared.ts): pg sends such a query's text
// once per connection (Parse) and then only binds and executes it, so PostgreSQL stops parsing and planning it on
// every request. Other queries (migrations, writes built per call) stay unnamed. The pool's connections are this
// client: a query whose text was registered is sent under its name, and one registered for its rows' values only
// (prepared's raw reads) asks pg for arrays, so no object is built per row.
import { createHash } from "node:crypto";
import type Pg from "pg";

interface Named {
  name: string;
  /** every caller of this text reads its rows as arrays of values */
  arrays: boolean;
}

/** Texts of the queries to send as named statements, their names (a digest of the text) and how rows come back. */
export class StatementNames {
  readonly #named = new Map<string, Named>();

  constructor(private readonly max = 1000) {}

  /**
   * From now on `text` runs as a named statement (beyond `max` texts, later ones stay unnamed); with `arrays`, its
   * rows come as arrays of values, unless the same text is also registered for row objects.
   */
  register(text: string, arrays = false): void {
    const known = this.#named.get(text);
    if (known) known.arrays &&= arrays;
    else if (this.#named.size < this.max) this.#named.set(text, { name: `twinspec_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`, arrays });
  }

  named(text: string): Named | undefined {
    return this.#named.get(text);
  }
}

/** pg's Client, sending the registered texts as named statements (the pool's `Client` option). */
export function namingClient(pg: typeof Pg, names: StatementNames): typeof Pg.Client {
  return class NamingClient extends pg.Client {
    // pg's query() has a dozen overloads; Kysely calls query(text, values) and awaits the promise.
    override query(config: any, values?: any, callback?: any): any {
      const named = typeof config === "string" && callback === undefined ? names.named(config) : undefined;
      if (named === undefined) return super.query(config, values, callback);
      if (!named.arrays) return super.query({ name: named.name, text: config, values });
      return super.query({ name: named.name, text: config, values, rowMode: "array" } satisfies Pg.QueryArrayConfig);
    }
  };
}

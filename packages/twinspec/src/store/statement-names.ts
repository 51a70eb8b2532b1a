// PostgreSQL named statements for the queries `prepared` compiles once (prepared.ts): pg sends such a query's text
// once per connection (Parse) and then only binds and executes it, so PostgreSQL stops parsing and planning it on
// every request. Other queries (migrations, writes built per call) stay unnamed. The pool's connections are this
// client: a query whose text was registered is sent under its name.
import { createHash } from "node:crypto";
import type Pg from "pg";

/** Texts of the queries to send as named statements, and their names (a digest of the text). */
export class StatementNames {
  readonly #names = new Map<string, string>();

  constructor(private readonly max = 1000) {}

  /** From now on `text` runs as a named statement (beyond `max` texts, later ones stay unnamed). */
  register(text: string): void {
    if (this.#names.has(text) || this.#names.size >= this.max) return;
    this.#names.set(text, `twinspec_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`);
  }

  nameOf(text: string): string | undefined {
    return this.#names.get(text);
  }
}

/** pg's Client, sending the registered texts as named statements (the pool's `Client` option). */
export function namingClient(pg: typeof Pg, names: StatementNames): typeof Pg.Client {
  return class NamingClient extends pg.Client {
    // pg's query() has a dozen overloads; Kysely calls query(text, values) and awaits the promise.
    override query(config: any, values?: any, callback?: any): any {
      const name = typeof config === "string" && callback === undefined ? names.nameOf(config) : undefined;
      return name === undefined ? super.query(config, values, callback) : super.query({ name, text: config, values });
    }
  };
}

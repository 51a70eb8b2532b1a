// PostgreSQL named statements for the queries `prepared` compiles once (prepared.ts): pg sends a named query's text
// once per connection (Parse) and then only binds and executes it, so PostgreSQL stops parsing and planning it on
// every request. Other queries (migrations, writes built per call) stay unnamed.
import { createHash } from "node:crypto";

/** The names of the compiled queries' texts: a digest of the text, so every instance of the app names it alike. */
export class StatementNames {
  readonly #names = new Map<string, string>();

  constructor(private readonly max = 1000) {}

  /** The name `text` runs under; beyond `max` texts (each holds memory on every connection), undefined: unnamed. */
  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max)
      this.#names.set(text, (name = `twinspec_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`));
    return name;
  }
}

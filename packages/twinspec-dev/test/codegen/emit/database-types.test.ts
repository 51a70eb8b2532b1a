// generated/database.ts: the row types come from the migrations, applied to a scratch SQLite database, so they cannot drift.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emitDatabase } from "../../../src/codegen/emit/database-types.js";

describe("emitDatabase (generated/database.ts)", function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "twinspec-migrations-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const migration = (name: string, body: string) =>
    writeFileSync(join(dir, `${name}.mjs`), `export async function up(db) {\n${body}\n}\n`);

  it("types every column of the application's tables by its declared type, nullability and default", async () => {
    migration(
      "001_books",
      `await db.schema.createTable("book_loans").addColumn("loan_id", "text", (c) => c.primaryKey()).addColumn("title", "text", (c) => c.notNull())
        .addColumn("pages", "integer").addColumn("price", "double precision", (c) => c.notNull()).addColumn("cover", "blob")
        .addColumn("renewals", "integer", (c) => c.notNull().defaultTo(0)).execute();`,
    );
    const out = await emitDatabase(dir);
    assert.ok(out);
    assert.match(out, /import type \{ Generated \} from "kysely";/);
    assert.match(
      out,
      /export interface BookLoansTable \{\n {2}loan_id: string;\n {2}title: string;\n {2}pages: number \| null;\n {2}price: number;\n {2}cover: Buffer \| null;\n {2}renewals: Generated<number>;\n\}/,
    );
    assert.match(
      out,
      /declare module "twinspec\/schema" \{\n {2}interface Database \{\n {4}book_loans: BookLoansTable;\n/,
    );
    // Twinspec's own tables are twinspec/schema's already.
    assert.doesNotMatch(out, /JobsTable|idempotency_keys|kysely_migration/);
  });

  it("changes when a migration adds a column (so `generate --check` fails until it is regenerated)", async () => {
    migration(
      "001_books",
      `await db.schema.createTable("books").addColumn("book_id", "text", (c) => c.primaryKey()).execute();`,
    );
    const before = await emitDatabase(dir);
    migration("002_isbn", `await db.schema.alterTable("books").addColumn("isbn", "text").execute();`);
    const after = await emitDatabase(dir);
    assert.notEqual(after, before);
    assert.match(after!, /book_id: string;\n {2}isbn: string \| null;/);
  });

  it("writes no file when there are no migrations", async () => {
    assert.equal(await emitDatabase(dir), undefined);
    assert.equal(await emitDatabase(join(dir, "absent")), undefined);
  });
});

// database.ts: the row type of every table the application's migrations make, so a table's columns are written once,
// in its migration. `generate` applies Twinspec's migrations and then the application's to a scratch in-memory SQLite
// database (openStore, as the server does), asks Kysely's own introspection for the tables, and writes one interface
// per table the application made, added to twinspec/schema's `Database` (declaration merging). Twinspec's own tables
// (jobs, idempotency keys, …) are typed by twinspec/schema itself and left out.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sql, type ColumnMetadata, type Kysely, type TableMetadata } from "kysely";
import { openStore } from "twinspec";
import { typescript } from "../load/commonjs.js";

/** Tables a migrations folder leaves (none given: Twinspec's own only), with the primary-key columns of each. */
async function tablesAfter(migrations: string): Promise<{ tables: TableMetadata[]; keys: Map<string, Set<string>> }> {
  const store = await openStore("sqlite::memory:", { migrations });
  try {
    const db = store.db as unknown as Kysely<any>;
    const tables = await db.introspection.getTables();
    const keys = new Map<string, Set<string>>();
    for (const table of tables) {
      // Kysely's metadata has no primary key; SQLite lets a non-integer key be NULL, PostgreSQL does not: a key column is never null.
      const { rows } = await sql<{
        name: string;
      }>`select name from pragma_table_info(${table.name}) where pk > 0`.execute(db);
      keys.set(table.name, new Set(rows.map((r) => r.name)));
    }
    return { tables, keys };
  } finally {
    await store.close();
  }
}

/**
 * The application's migrations as a folder Node can import. They are TypeScript, which Node cannot import by itself
 * everywhere: unless this generator runs under a TypeScript loader already, each file is compiled to JavaScript
 * (TypeScript's transpileModule, no type check) into the .cache of the nearest node_modules above them, where the
 * packages they import resolve as they do from the migrations' own folder.
 */
async function importable(folder: string): Promise<string> {
  const names = readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isFile() ? [e.name] : []));
  if (import.meta.url.endsWith(".ts") || !names.some(isTypeScript)) return folder;
  const modules = nodeModules(folder);
  if (!modules) {
    await import("tsx/esm/api").then(({ register }) => register()); // nowhere to put them: a loader for the rest of the run
    return folder;
  }
  const cache = join(modules, ".cache");
  const ts = typescript();
  const compiled = names.map((name) => {
    const text = readFileSync(join(folder, name), "utf8");
    if (!isTypeScript(name)) return { name, text };
    const js = ts.transpileModule(text, {
      fileName: name,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    return { name: name.replace(/\.[mc]?ts$/, ".mjs"), text: js.outputText };
  });
  const out = join(
    cache,
    "twinspec-migrations",
    createHash("sha256").update(JSON.stringify(compiled)).digest("hex").slice(0, 16),
  );
  if (!existsSync(out)) {
    const building = `${out}-${process.pid}`;
    mkdirSync(building, { recursive: true });
    for (const { name, text } of compiled) writeFileSync(join(building, name), text);
    try {
      renameSync(building, out);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another generate made the same folder first
    }
  }
  return out;
}

/** The node_modules folder the migrations' imports resolve from: the nearest one above them. */
function nodeModules(folder: string): string | undefined {
  for (let dir = dirname(folder); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules");
    if (dirname(dir) === dir) return undefined;
  }
}

const isTypeScript = (name: string) => /\.[mc]?ts$/.test(name) && !name.endsWith(".d.ts");

/**
 * The TypeScript type of a column, by SQLite's type affinity of its declared type (https://sqlite.org/datatype3.html#affinity_name_examples),
 * which is how the migrations' portable types (text(db), bytes(db), "integer", "double precision") read back on both dialects.
 */
function columnType(column: ColumnMetadata): string {
  const declared = column.dataType.toLowerCase();
  if (declared.includes("int")) return "number";
  if (/char|clob|text/.test(declared)) return "string";
  if (declared === "" || declared.includes("blob")) return "Buffer";
  return "number"; // real, floa, doub, numeric, decimal
}

const interfaceName = (table: string) =>
  `${table.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}Table`;

/** generated/database.ts of the migrations in `folder` (relative to the project), or undefined when there are none. */
export async function emitDatabase(folder = "src/migrations"): Promise<string | undefined> {
  const migrations = resolve(folder);
  if (!existsSync(migrations) || readdirSync(migrations).length === 0) return undefined;
  // A folder that does not exist: openStore applies Twinspec's migrations only.
  const own = new Set((await tablesAfter(join(migrations, "\0none"))).tables.map((t) => t.name));
  const { tables, keys } = await tablesAfter(await importable(migrations));
  const mine = tables.filter((t) => !own.has(t.name)).sort((a, b) => a.name.localeCompare(b.name));
  let generated = false;
  const blocks = mine.map((table) => {
    const lines = table.columns.map((column) => {
      let type = columnType(column);
      if (column.isNullable && !keys.get(table.name)?.has(column.name)) type += " | null";
      if (column.hasDefaultValue || column.isAutoIncrementing) {
        generated = true;
        type = `Generated<${type}>`;
      }
      return `  ${column.name}: ${type};`;
    });
    return `/** The ${table.name} ${table.isView ? "view" : "table"}, as ${folder}/ leaves it. */\nexport interface ${interfaceName(table.name)} {\n${lines.join("\n")}\n}\n`;
  });
  const merged = mine.map((t) => `    ${t.name}: ${interfaceName(t.name)};`).join("\n");
  return [
    `// The row type of each table ${folder}/ makes, read from a scratch SQLite database migrated by \`npm run generate\`.`,
    "// Selectable<T>, Insertable<T> and Updateable<T> of kysely give the shapes of reads, inserts and updates.",
    ...(generated ? ['import type { Generated } from "kysely";'] : []),
    "",
    ...blocks,
    'declare module "twinspec/schema" {',
    "  interface Database {",
    merged,
    "  }",
    "}",
    "",
  ].join("\n");
}

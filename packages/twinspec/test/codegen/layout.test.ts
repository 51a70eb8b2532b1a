// The generator's layers: load/ reads the specs, model/ turns them into what the rest reads, check/ and emit/ read
// the model, and the entry points (codegen/ itself) use them all. No folder imports one above it, no file is in a
// cycle. Imports are read with the TypeScript parser, so the import text of the code emitters write is not one.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const CODEGEN = fileURLToPath(new URL("../../src/codegen", import.meta.url));
/** What each folder may import, besides itself. */
const LAYERS: Record<string, string[]> = { load: [], model: ["load"], check: ["load", "model"], emit: ["load", "model"], ".": ["load", "model", "check", "emit"] };

const files = readdirSync(CODEGEN, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .map((f) => join(CODEGEN, f));

/** Each file's imports of other files of codegen/ (import, export … from, import(), new URL()). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL") specifier = node.arguments?.[0];
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith(".")) {
      const target = resolve(dirname(file), specifier.text);
      const hit = [target, target.replace(/\.js$/, ".ts")].find((t) => files.includes(t));
      if (hit) found.push(hit);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));
const folder = (file: string) => relative(CODEGEN, dirname(file)) || ".";
const name = (file: string) => relative(CODEGEN, file);

describe("codegen/ layout", () => {
  it("has no file outside load/, model/, check/, emit/ and the entry points", () => {
    assert.deepEqual([...new Set(files.map(folder))].filter((f) => !(f in LAYERS)), []);
  });

  it("no folder imports a folder above it", () => {
    const wrong = files.flatMap((f) => graph.get(f)!.filter((d) => folder(d) !== folder(f) && !LAYERS[folder(f)].includes(folder(d))).map((d) => `${name(f)} → ${name(d)}`));
    assert.deepEqual(wrong, []);
  });

  it("no file is in an import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const walk = (file: string) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") return void cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(" → "));
      state.set(file, "open");
      path.push(file);
      graph.get(file)!.forEach(walk);
      path.pop();
      state.set(file, "done");
    };
    files.forEach(walk);
    assert.deepEqual(cycles, []);
  });
});

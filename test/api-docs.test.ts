// Every argument of the public API is documented, where a reader of the code and a reader of the docs each look: read
// with the TypeScript compiler from the packages' sources, every export of the entry points an application imports
// (`twinspec`, `twinspec/runtime`, `twinspec/schema`, `twinspec/events`, `twinspec-dev/testing`, `twinspec-dev/mock`)
// has a doc comment; so has each of its parameters (an `@param`, or a comment on the parameter) unless the parameter
// is an options object whose every field has one; so has every field and public member of an exported interface,
// type or class. And docs/api.md names each export in the section of its entry point. (An argument had been found
// only by reading a .d.ts: keysetPager's `sample`, in no comment and no guide.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

const PACKAGES = resolve("packages");
/** Each public entry point: its specifier, and the package.json and export it is read from. */
const ENTRIES: [specifier: string, pkg: string, subpath: string][] = [
  ["twinspec", "twinspec", "."],
  ["twinspec/runtime", "twinspec", "./runtime"],
  ["twinspec/schema", "twinspec", "./schema"],
  ["twinspec/events", "twinspec", "./events"],
  ["twinspec-dev/testing", "twinspec-dev", "./testing"],
  ["twinspec-dev/mock", "twinspec-dev", "./mock"],
];
const sourceOf = (pkg: string, subpath: string) =>
  resolve(
    PACKAGES,
    pkg,
    JSON.parse(readFileSync(resolve(PACKAGES, pkg, "package.json"), "utf8")).exports[subpath]["twinspec-source"],
  );
const files = ENTRIES.map(([, pkg, subpath]) => sourceOf(pkg, subpath));

const config = ts.getParsedCommandLineOfConfigFile(
  "tsconfig.json",
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;
let checker: ts.TypeChecker;

const ours = (node: ts.Node) =>
  node.getSourceFile().fileName.startsWith(PACKAGES) && node.getSourceFile().fileName.includes("/src/");
const where = (node: ts.Node) => {
  const file = node.getSourceFile();
  return `${file.fileName.slice(PACKAGES.length + 1)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};
const documented = (symbol: ts.Symbol) =>
  ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== "";
const isPublic = (node: ts.Declaration) => {
  const name = ts.getNameOfDeclaration(node);
  return (
    !(ts.getCombinedModifierFlags(node) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) &&
    !(name && ts.isPrivateIdentifier(name))
  );
};

/** The `@param` tags that describe a function type's parameters: on the type alias or property it is the type of. */
function enclosingParamTags(signature: ts.SignatureDeclaration): readonly ts.JSDocParameterTag[] {
  let node: ts.Node = signature;
  while (ts.isTypeNode(node.parent) || ts.isTypeAliasDeclaration(node.parent) || ts.isPropertySignature(node.parent)) {
    node = node.parent;
    if (ts.isTypeAliasDeclaration(node) || ts.isPropertySignature(node))
      return ts.getJSDocTags(node).filter(ts.isJSDocParameterTag);
  }
  return [];
}

/** A parameter is described by an `@param` or a comment of its own, or is an options object whose every field has one. */
function parameterGaps(signature: ts.SignatureDeclaration, owner: string): string[] {
  const outer = ts.isFunctionTypeNode(signature) ? enclosingParamTags(signature) : [];
  return signature.parameters.flatMap((parameter, i) => {
    const name = ts.isIdentifier(parameter.name) ? parameter.name.text : `#${i + 1}`;
    const tags = [
      ...ts.getJSDocParameterTags(parameter),
      ...outer.filter((tag) => ts.isIdentifier(tag.name) && tag.name.text === name),
    ];
    const tagged = tags.some((tag) => ts.getTextOfJSDocComment(tag.comment)?.trim());
    const own = ts
      .getJSDocCommentsAndTags(parameter)
      .some((doc) => ts.isJSDoc(doc) && ts.getTextOfJSDocComment(doc.comment)?.trim());
    if (tagged || own) return [];
    // An options object (a type named …Options, …Deps, …Claims, or destructured) is described by its fields.
    const type = checker.getNonNullableType(checker.getTypeAtLocation(parameter));
    const typeName = (type.aliasSymbol ?? type.getSymbol())?.name ?? "";
    const options = ts.isObjectBindingPattern(parameter.name) || /(Options|Deps|Claims)$/.test(typeName);
    const fields = options ? fieldsOf(type) : [];
    if (fields.length > 0 && fields.every((field) => documented(field))) return [];
    return [`${owner}: parameter ${name} is not described (${where(parameter)})`];
  });
}

/** The fields and public members the package declares on a type (inherited ones of other libraries left out). */
function fieldsOf(type: ts.Type): ts.Symbol[] {
  return checker.getPropertiesOfType(type).filter((p) => {
    const declaration = p.declarations?.[0];
    return declaration !== undefined && ours(declaration) && isPublic(declaration) && !p.name.startsWith("#");
  });
}

/** Whether one of the interfaces a class implements (the package's own) has a member of that name. */
function implemented(declaration: ts.ClassDeclaration, member: string): boolean {
  const implementing = (declaration.heritageClauses ?? [])
    .filter((c) => c.token === ts.SyntaxKind.ImplementsKeyword)
    .flatMap((c) => c.types);
  return implementing.some((node) => fieldsOf(checker.getTypeAtLocation(node)).some((p) => p.name === member));
}

/** What one export lacks: its own comment, its parameters' and its fields'. */
function gapsOf(name: string, symbol: ts.Symbol): string[] {
  const declaration = symbol.declarations![0];
  const gaps = documented(symbol) ? [] : [`${name} has no doc comment (${where(declaration)})`];
  const signatures = (node: ts.Node): ts.SignatureDeclaration[] => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionTypeNode(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodSignature(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node)
    )
      return [node];
    if (ts.isVariableDeclaration(node) && node.initializer) return signatures(node.initializer);
    if (
      (ts.isTypeAliasDeclaration(node) || ts.isPropertySignature(node) || ts.isParenthesizedTypeNode(node)) &&
      node.type
    )
      return signatures(node.type);
    if (ts.isIntersectionTypeNode(node) || ts.isUnionTypeNode(node)) return node.types.flatMap(signatures);
    return [];
  };
  // An overloaded function is read by its overloads, not by the implementation's signature, which callers never see.
  const overloaded = symbol.declarations!.filter((node) => ts.isFunctionDeclaration(node) && !node.body);
  for (const node of overloaded.length > 0 ? overloaded : symbol.declarations!)
    for (const signature of signatures(node)) gaps.push(...parameterGaps(signature, name));
  if (symbol.flags & ts.SymbolFlags.Class) {
    for (const member of (declaration as ts.ClassDeclaration).members)
      if (ts.isConstructorDeclaration(member)) gaps.push(...parameterGaps(member, `new ${name}`));
  }
  if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias)) {
    for (const property of fieldsOf(checker.getDeclaredTypeOfSymbol(symbol))) {
      // A shorthand property (`{ send }`) is described on itself or where its value is declared.
      const shorthand = property.declarations?.find(ts.isShorthandPropertyAssignment);
      const field = (shorthand && checker.getShorthandAssignmentValueSymbol(shorthand)) || property;
      if (!documented(property) && !documented(field))
        gaps.push(`${name}.${property.name} has no doc comment (${where(property.declarations![0])})`);
      // A class's method that implements an interface's is described there (that interface is checked as an export).
      if (symbol.flags & ts.SymbolFlags.Class && implemented(declaration as ts.ClassDeclaration, property.name))
        continue;
      for (const node of field.declarations ?? [])
        for (const signature of signatures(node)) gaps.push(...parameterGaps(signature, `${name}.${property.name}`));
    }
  }
  return gaps;
}

/** docs/api.md's text under each entry point's heading (`## \`twinspec/runtime\``), to the next `## `. */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of markdown.split(/^(?=## )/m)) {
    const heading = /^## `([^`]+)`/.exec(part);
    if (heading) found.set(heading[1], part);
  }
  return found;
}

describe("the public API's documentation", function () {
  this.timeout(120_000);
  const exports = new Map<string, { name: string; symbol: ts.Symbol }[]>();
  before(() => {
    const program = ts.createProgram(files, config.options);
    checker = program.getTypeChecker();
    for (const [i, [specifier]] of ENTRIES.entries()) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(files[i])!)!;
      exports.set(
        specifier,
        checker
          .getExportsOfModule(module)
          .map((e) => ({ name: e.name, symbol: e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e })),
      );
    }
  });

  it("every export, its parameters and its fields have a doc comment", () => {
    const seen = new Set<ts.Symbol>();
    const gaps: string[] = [];
    for (const [specifier, list] of exports) {
      for (const { name, symbol } of list) {
        if (seen.has(symbol)) continue;
        seen.add(symbol);
        gaps.push(...gapsOf(name, symbol).map((gap) => `${specifier}: ${gap}`));
      }
    }
    // The message lists them all (a diff of a long array is cut short).
    assert.deepEqual(gaps, [], `undocumented:\n${gaps.join("\n")}`);
  });

  it("docs/api.md names every export in the section of its entry point", () => {
    const text = sections(readFileSync("docs/api.md", "utf8"));
    const missing: string[] = [];
    for (const [specifier, list] of exports) {
      const section = text.get(specifier);
      if (section === undefined) {
        missing.push(`${specifier}: no section`);
        continue;
      }
      const named = new Set([...section.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1].match(/[A-Za-z_$][\w$]*/g) ?? []));
      missing.push(...list.filter(({ name }) => !named.has(name)).map(({ name }) => `${specifier}: ${name}`));
    }
    assert.deepEqual(missing, [], `not in docs/api.md:\n${missing.join("\n")}`);
  });
});

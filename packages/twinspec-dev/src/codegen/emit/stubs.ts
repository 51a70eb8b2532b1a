// Stubs in the hand-written files, like gqlgen's: for each operation a handler in src/rest/<tag>.ts, for each
// GraphQL field that needs one a resolver in src/graphql/<tag>.ts, and for each resource its domain module
// src/domain/<tag>.ts with every method generated/wiring.ts asks of its service (domainNeeds: ownerOf, parentOf, get,
// listByParents, getMany). A new file is written whole; into an existing one only the missing members are inserted,
// at the end of its `handlers` / `resolvers` object or of the class its createService returns (a method a new
// relation now asks of an existing module). Nothing already written is ever changed. A stub answers 501 (REST) or
// NOT_IMPLEMENTED (GraphQL), so the server runs while you fill them in.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as TS from "typescript";
import { typescript } from "../load/commonjs.js";
import type { Contract, FieldPlan, Resource } from "../model/contract.js";
import { domainNeeds, tagsWithFiles, type DomainNeed } from "./contract-emitter.js";
import { deref, isObject, type Json, type JsonObject } from "../load/spec.js";

const ts = typescript();

export interface StubChange {
  file: string;
  /** what was (or, with check, would be) added */
  added: string[];
  created: boolean;
  /** a domain module: the methods generated/wiring.ts asks of its service that it was given (or, manual, lacks), and why */
  needs?: DomainNeed[];
  /** the needs could not be appended (no class of its own that createService returns): the user adds them */
  manual?: true;
}

const STUB_IMPORT = `import { NotImplementedError } from "twinspec";`;
const throwing = (what: string, indent: string) =>
  `{\n${indent}  throw new NotImplementedError(${JSON.stringify(what)});\n${indent}}`;

/** The hand-written files syncStubs reads or creates: whether --check finds stubs missing depends on their contents alone. */
export function stubFiles(contract: Contract): string[] {
  const { rest, graphql, domain } = tagsWithFiles(contract);
  return [
    ...rest.map((t) => `src/rest/${t}.ts`),
    ...graphql.map((t) => `src/graphql/${t}.ts`),
    ...domain.map((t) => `src/domain/${t}.ts`),
    "src/graphql/scalars.ts",
    "src/graphql/loaders.ts",
  ];
}

/** Writes (or with check, only lists) every missing stub under `root` (the project folder). */
export function syncStubs(contract: Contract, doc: JsonObject, { check = false, root = "." } = {}): StubChange[] {
  const changes: StubChange[] = [];
  const write = (file: string, content: string, added: string[], created: boolean, needs?: DomainNeed[]) => {
    changes.push({ file, added, created, ...(needs?.length ? { needs } : {}) });
    if (check) return;
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  };
  const { rest, graphql, domain } = tagsWithFiles(contract);

  for (const tag of rest) {
    const file = `src/rest/${tag}.ts`;
    // An event stream is served from its paired subscription (isEventStream): no handler to write.
    const ops = [...contract.operations]
      .filter(([, o]) => o.tag === tag && !o.part && !o.graphql?.startsWith("Subscription."))
      .map(([id]) => id);
    const member = (id: string) => `  async ${id}() ${throwing(id, "  ")},\n`;
    const path = join(root, file);
    if (!existsSync(path)) {
      const text = [
        `// REST handlers for the ${tag} operations of openapi.yaml: request → domain (src/domain/${tag}.ts) → response.`,
        "// `npm run generate` adds a stub here for each new operation of this tag; replace its body. What a handler",
        '// builds its answer with (bodies, ETag and Location headers, Link pages): README, "Filling in the stubs".',
        `import type { HandlersByTag } from "../../generated/rest.js";`,
        STUB_IMPORT,
        "",
        `export const handlers: HandlersByTag[${JSON.stringify(tag)}] = {`,
        ops.map(member).join("") + "};",
        "",
      ].join("\n");
      write(file, text, ops, true);
      continue;
    }
    const source = readFileSync(path, "utf8");
    const literal = exportedObject(file, source, "handlers");
    const missing = ops.filter((id) => !propertyNames(literal).has(id));
    if (missing.length)
      write(file, ensureImport(file, insertMembers(source, literal, missing.map(member).join(""))), missing, false);
  }

  for (const tag of graphql) {
    const file = `src/graphql/${tag}.ts`;
    const fields = contract.fields.filter((f) => f.tag === tag && !f.relation && !f.part);
    const path = join(root, file);
    if (!existsSync(path)) {
      const byType = group(fields);
      const text = [
        `// GraphQL resolvers for the ${tag} fields of schema.graphql: thin calls into the domain (src/domain/${tag}.ts).`,
        "// `npm run generate` adds a stub here for each new field that needs a resolver; replace its body.",
        `import type { ResolversByTag } from "../../generated/resolvers.js";`,
        STUB_IMPORT,
        "",
        `export const resolvers: ResolversByTag[${JSON.stringify(tag)}] = {`,
        [...byType]
          .map(([type, list]) => `  ${type}: {\n${list.map((f) => fieldStub(f, "    ")).join("")}  },\n`)
          .join("") + "};",
        "",
      ].join("\n");
      write(
        file,
        text,
        fields.map((f) => f.coordinate),
        true,
      );
      continue;
    }
    let source = readFileSync(path, "utf8");
    const added: string[] = [];
    for (const [type, list] of group(fields)) {
      const top = exportedObject(file, source, "resolvers");
      const inner = top.properties.find(
        (p): p is TS.PropertyAssignment => ts.isPropertyAssignment(p) && nameOf(p.name) === type,
      );
      if (!inner) {
        source = insertMembers(source, top, `  ${type}: {\n${list.map((f) => fieldStub(f, "    ")).join("")}  },\n`);
        added.push(...list.map((f) => f.coordinate));
        continue;
      }
      if (!ts.isObjectLiteralExpression(inner.initializer)) continue;
      const missing = list.filter((f) => !propertyNames(inner.initializer as TS.ObjectLiteralExpression).has(f.field));
      if (missing.length === 0) continue;
      source = insertMembers(source, inner.initializer, missing.map((f) => fieldStub(f, "    ")).join(""), "    ");
      added.push(...missing.map((f) => f.coordinate));
    }
    if (added.length) write(file, ensureImport(file, source), added, false);
  }

  const needsByTag = domainNeeds(contract);
  for (const tag of domain) {
    const file = `src/domain/${tag}.ts`;
    const resource = contract.resources.find((r) => r.tag === tag)!;
    const needs = needsByTag.get(tag) ?? [];
    if (!existsSync(join(root, file))) {
      write(
        file,
        domainStub(resource, needs, doc),
        ["createService", resource.schema, ...needs.map((n) => n.method)],
        true,
        needs,
      );
      continue;
    }
    // A module already written: the methods the wiring now asks of its service (a new relation, a new child) that
    // the class createService returns does not declare, appended to that class.
    const source = readFileSync(join(root, file), "utf8");
    const service = serviceClass(file, source, resource);
    if (!service.node) {
      const lacking = needs.filter((n) => !service.declared.has(n.method));
      if (lacking.length) changes.push({ file, added: [], created: false, needs: lacking, manual: true });
      continue;
    }
    const names = memberNames(service.node);
    const missing = needs.filter((n) => !names.has(n.method));
    if (missing.length === 0) continue;
    const members = missing.map((n) => methodStub(resource, n));
    write(
      file,
      ensureImport(file, insertClassMembers(source, service.node, members)),
      missing.map((n) => n.method),
      false,
      missing,
    );
  }

  // generated/wiring.ts imports these two whatever the specs say: written once, then the application's.
  if (!existsSync(join(root, "src/graphql/scalars.ts")))
    write("src/graphql/scalars.ts", scalarsStub(contract.scalars), ["scalars"], true);
  if (!existsSync(join(root, "src/graphql/loaders.ts")))
    write("src/graphql/loaders.ts", LOADERS_STUB, ["createLoaders"], true);
  return changes;
}

function group(fields: FieldPlan[]): Map<string, FieldPlan[]> {
  const byType = new Map<string, FieldPlan[]>();
  for (const f of fields) byType.set(f.type, [...(byType.get(f.type) ?? []), f]);
  return byType;
}

function fieldStub(f: FieldPlan, indent: string): string {
  if (f.type === "Subscription")
    return `${indent}${f.field}: {\n${indent}  subscribe: () => ${throwing(f.coordinate, `${indent}  `)},\n${indent}},\n`;
  return `${indent}${f.field}: () => ${throwing(f.coordinate, indent)},\n`;
}

function exportedObject(file: string, source: string, name: string): TS.ObjectLiteralExpression {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== name || !decl.initializer) continue;
      let init = decl.initializer;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init) || ts.isParenthesizedExpression(init))
        init = init.expression;
      if (ts.isObjectLiteralExpression(init)) return init;
    }
  }
  throw new Error(
    `${file} has no \`export const ${name} = { … }\` to add stubs to; restore it, or move the file away and run npm run generate`,
  );
}

function nameOf(name: TS.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function propertyNames(literal: TS.ObjectLiteralExpression): Set<string> {
  return new Set(literal.properties.flatMap((p) => (p.name ? [nameOf(p.name)].filter((n): n is string => !!n) : [])));
}

/** `text` (whole lines) inserted before the literal's closing brace, after a comma for the last member if it lacks one. */
function insertMembers(source: string, literal: TS.ObjectLiteralExpression, text: string, indent = "  "): string {
  const close = literal.end - 1;
  const last = literal.properties.at(-1);
  let before = source.slice(0, close);
  if (last && !/,\s*$/.test(source.slice(last.end, close)))
    before = source.slice(0, last.end) + "," + source.slice(last.end, close);
  const lineStart = before.replace(/[ \t]*$/, "");
  const needsNewline = !lineStart.endsWith("\n");
  return `${lineStart}${needsNewline ? "\n" : ""}${text}${indent.slice(2)}${source.slice(close)}`;
}

/**
 * `source` with NotImplementedError imported when a stub in it throws one and nothing binds the name yet: added to
 * an existing `import { … } from "twinspec"` when there is one, else as a line of its own after the last import.
 */
function ensureImport(file: string, source: string): string {
  if (!/\bnew NotImplementedError\(/.test(source)) return source;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  let twinspec: TS.NamedImports | undefined;
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const { importClause: clause, moduleSpecifier } = statement;
    const bindings = clause.namedBindings;
    if (clause.name?.text === "NotImplementedError" && !clause.isTypeOnly) return source;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    if (bindings.elements.some((e) => e.name.text === "NotImplementedError")) return source;
    if (
      !clause.isTypeOnly &&
      ts.isStringLiteral(moduleSpecifier) &&
      moduleSpecifier.text === "twinspec" &&
      bindings.elements.length
    )
      twinspec ??= bindings;
  }
  const declared = (node: TS.Node): boolean =>
    ((ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name?.text === "NotImplementedError") ||
    (ts.isVariableStatement(node) &&
      node.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === "NotImplementedError"));
  if (sf.statements.some(declared)) return source;
  if (twinspec) {
    const at = twinspec.elements.at(-1)!.end;
    return `${source.slice(0, at)}, NotImplementedError${source.slice(at)}`;
  }
  const imports = sf.statements.filter(ts.isImportDeclaration);
  const at = imports.length ? imports.at(-1)!.end : 0;
  if (at === 0) return `${STUB_IMPORT}\n${source}`;
  return `${source.slice(0, at)}\n${STUB_IMPORT}${source.slice(at)}`;
}

/**
 * The class of a domain module that generate may append methods to: the one its createService returns (`return new
 * X(deps)`), else `<Schema>Service`; none when that class extends another (what it inherits is not read here) or
 * createService returns something else. `declared`: the names the service is known to have either way.
 */
function serviceClass(
  file: string,
  source: string,
  resource: Resource,
): { node?: TS.ClassDeclaration; declared: Set<string> } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  let factory: TS.Node | undefined;
  let returned: TS.Expression | undefined;
  const visit = (node: TS.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) returned ??= node.expression;
    else if (!ts.isFunctionLike(node) || node === factory) ts.forEachChild(node, visit);
  };
  for (const statement of sf.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === "createService") factory = statement;
    if (ts.isVariableStatement(statement)) {
      const decl = statement.declarationList.declarations.find(
        (d) => ts.isIdentifier(d.name) && d.name.text === "createService",
      );
      if (decl?.initializer && (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer)))
        factory = decl.initializer;
    }
  }
  if (factory && ts.isArrowFunction(factory) && !ts.isBlock(factory.body)) returned = factory.body;
  else if (factory) visit(factory);
  while (
    returned &&
    (ts.isParenthesizedExpression(returned) || ts.isAsExpression(returned) || ts.isSatisfiesExpression(returned))
  )
    returned = returned.expression;
  if (returned && ts.isObjectLiteralExpression(returned)) return { declared: propertyNames(returned) };
  const name =
    returned && ts.isNewExpression(returned) && ts.isIdentifier(returned.expression)
      ? returned.expression.text
      : `${resource.schema}Service`;
  const node = sf.statements.find(
    (st): st is TS.ClassDeclaration => ts.isClassDeclaration(st) && st.name?.text === name,
  );
  if (!node) return { declared: new Set() };
  const extended = node.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
  return extended ? { declared: memberNames(node) } : { node, declared: memberNames(node) };
}

/** The members a class declares: methods, properties, accessors, and the constructor's parameter properties. */
function memberNames(node: TS.ClassDeclaration): Set<string> {
  const names = new Set<string>();
  for (const member of node.members) {
    const name = member.name && nameOf(member.name);
    if (name) names.add(name);
    if (ts.isConstructorDeclaration(member)) {
      for (const p of member.parameters)
        if (ts.getModifiers(p)?.length && ts.isIdentifier(p.name)) names.add(p.name.text);
    }
  }
  return names;
}

/** `members` (each whole lines, unterminated) inserted before the class's closing brace, a blank line before each. */
function insertClassMembers(source: string, node: TS.ClassDeclaration, members: string[]): string {
  const close = node.end - 1;
  let before = source.slice(0, close).replace(/[ \t]*$/, "");
  if (!before.endsWith("\n")) before += "\n";
  const empty = node.members.length === 0;
  return `${before}${members.map((m, i) => `${i === 0 && empty ? "" : "\n"}${m}\n`).join("")}${source.slice(close)}`;
}

/** The stub of one method generated/wiring.ts asks of a domain service: its doc comment and a body that throws. */
function methodStub(resource: Resource, need: DomainNeed): string {
  const { id, schema, tag } = resource;
  const body = throwing(`${tag}.${need.method}`, "  ");
  const signature = {
    ownerOf: `async ownerOf(${id}: string): Promise<string | undefined>`,
    parentOf: `async parentOf(${id}: string): Promise<string | undefined>`,
    get: `async get(${id}: string): Promise<${schema}>`,
    listByParents: `async listByParents(parentIds: readonly string[], fields?: readonly string[]): Promise<Map<string, ${schema}[]>>`,
    getMany: `async getMany(ids: readonly string[]): Promise<${schema}[]>`,
  }[need.method];
  const doc = {
    ownerOf: `Who owns ${id} (its ${resource.owner}); undefined when there is no such ${schema}.`,
    parentOf: `Which ${resource.through} instance ${id} is under (its ${resource.owner}: whoever owns that one owns it); undefined when there is no such ${schema}.`,
    get: `One ${schema}, or its 404 / 410 (NotFoundError, GoneError). Asked because it is ${need.why}.`,
    listByParents: `The live ${schema} instances under each of many parents, in one query: parent id → its list (\`fields\`: the ones asked for). Asked because ${need.why}.`,
    getMany: `The live ${schema} instances among many ids, in one query, in any order (missing or deleted: left out). Asked because ${need.why}.`,
  }[need.method];
  return `  /** ${doc} */\n  ${signature} ${body}`;
}

function domainStub(resource: Resource, needs: DomainNeed[], doc: JsonObject): string {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const schema = deref(doc, schemas[resource.schema], "openapi.yaml", `/components/schemas/${resource.schema}`).value;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const props = Object.entries(isObject(schema.properties) ? schema.properties : {});
  const service = `${resource.schema}Service`;
  return [
    `// The ${resource.tag} domain: its rules, once, for REST and GraphQL alike. \`npm run generate\` wrote this stub because`,
    `// openapi.yaml declares the resource (tag ${resource.tag}); fill it in. Its table comes from a migration in src/migrations/.`,
    '// The building blocks (ids, pages, 404/410, If-Match, transactions, the table type): README, "Filling in the stubs".',
    `import type { Deps } from "../../generated/wiring.js";`,
    ...(needs.length ? [STUB_IMPORT] : []),
    "",
    `/** One ${resource.schema} as the domain holds it; GraphQL resolves ${resource.schema}'s fields from it. */`,
    `export interface ${resource.schema} {`,
    ...props.map(([name, p]) => `  ${name}${required.has(name) ? "" : "?"}: ${tsType(doc, p)};`),
    ...(resource.etag && !props.some(([name]) => name === "version")
      ? [
          "  /** +1 on every change: the ETag's source (etagOf, resourceHeaders) and what If-Match is checked against (holds) */",
          "  version: number;",
        ]
      : []),
    "}",
    "",
    `export class ${service} {`,
    "  // deps: the store (deps.store.db), bus, queue, log, and every other service, typed (deps.services.<tag>).",
    "  constructor(private readonly deps: Deps) {}",
    ...needs.flatMap((n) => ["", methodStub(resource, n)]),
    "}",
    "",
    `export function createService(deps: Deps): ${service} {`,
    `  return new ${service}(deps);`,
    "}",
    "",
  ].join("\n");
}

function scalarsStub(scalars: readonly string[]): string {
  const custom = scalars.filter((s) => s !== "DateTime");
  return [
    "// The custom scalars of schema.graphql. `npm run generate` wrote this file; DateTime is Twinspec's (RFC 3339 strings).",
    ...(custom.length ? [`import { GraphQLScalarType } from "graphql";`] : []),
    ...(scalars.includes("DateTime") ? [`import { DateTime } from "twinspec";`] : []),
    `import type { ScalarResolvers } from "../../generated/resolvers.js";`,
    "",
    "/** Every custom scalar of schema.graphql (generated/resolvers.ts asks for each one). */",
    "export const scalars: ScalarResolvers = {",
    ...(scalars.includes("DateTime") ? ["  DateTime,"] : []),
    ...custom.map(
      (s) =>
        `  // values pass through unchanged: give ${s} its own serialize/parseValue/parseLiteral\n  ${s}: new GraphQLScalarType({ name: ${JSON.stringify(s)} }),`,
    ),
    "};",
    "",
  ].join("\n");
}

const LOADERS_STUB = [
  "// Per-operation DataLoaders for GraphQL resolvers (ctx.loaders): one query per relationship per tick, whatever the",
  "// number of parents. `npm run generate` wrote this file; add a loader where a field reads a relation.",
  `import type { Services } from "../../generated/wiring.js";`,
  "",
  "export function createLoaders(services: Services) {",
  "  void services;",
  "  return {};",
  "}",
  "",
].join("\n");

function tsType(doc: JsonObject, raw: Json): string {
  const value = deref(doc, raw, "openapi.yaml", "").value;
  const types = (Array.isArray(value.type) ? value.type : [value.type]).filter((t) => t !== undefined).map(String);
  const one = (t: string) =>
    t === "string"
      ? Array.isArray(value.enum)
        ? value.enum.map((v) => JSON.stringify(v)).join(" | ")
        : "string"
      : t === "integer" || t === "number"
        ? "number"
        : t === "boolean"
          ? "boolean"
          : t === "null"
            ? "null"
            : t === "array"
              ? `${value.items === undefined ? "unknown" : wrap(tsType(doc, value.items))}[]`
              : "Record<string, unknown>";
  return types.length ? types.map(one).join(" | ") : "unknown";
}

const wrap = (t: string) => (/[ |]/.test(t) ? `(${t})` : t);

// Emits what the project's two specs state together (contract.ts) as code:
// - generated/contract.ts: scopes, resources, who owns the target of each operation and root field, the
//   validators a root field's arguments share with its paired operation, and the rate limits (data only; no
//   hand-written imports);
// - generated/resolvers.ts: ResolversByTag, the resolvers each src/graphql/<tag>.ts must have (missing = type error);
// - generated/wiring.ts: the one place that imports every hand-written tag file (domain services, REST handlers,
//   GraphQL resolvers) and assembles them, so a missing module, handler, resolver or ownerOf is a type error.
import type { Contract, FieldPlan } from "../model/contract.js";
import { ident, prop, quote } from "../model/operations.js";
import { emitRelationResolvers, RELATION_TYPES, relationImports } from "./relation-resolvers.js";
import type { OperationValidators } from "./validators.js";

/** Tags that have a REST or GraphQL file, in the order resources are declared, then the rest by name. */
export function tagsWithFiles(contract: Contract): { rest: string[]; graphql: string[]; domain: string[] } {
  const order = (tags: Iterable<string>) => {
    const set = new Set(tags);
    const declared = contract.resources.map((r) => r.tag).filter((t) => set.has(t));
    return [...declared, ...[...set].filter((t) => !declared.includes(t)).sort()];
  };
  return {
    // What a Twinspec part declares, the framework serves: no file of the application's holds it.
    rest: order([...contract.operations.values()].filter((o) => !o.part).map((o) => o.tag)),
    graphql: order(contract.fields.filter((f) => !f.relation && !f.part).map((f) => f.tag)),
    domain: contract.resources.map((r) => r.tag),
  };
}

/** A method generated/wiring.ts asks of a domain service (createServices `satisfies` it), and what makes it ask. */
export interface DomainNeed {
  method: "ownerOf" | "parentOf" | "get" | "listByParents" | "getMany";
  /** its type in generated/wiring.ts: "OwnerOf", "ListByParents<loansDomain.Loan>" */
  type: string;
  /** why the specs need it, for the user: "Member.loans lists it under a parent" */
  why: string;
}

/**
 * What the wiring asks of each resource's domain service, by tag: who owns an instance (ownerOf), which parent it is
 * under (parentOf), a parent's lookup (get), the batched reads relations make of it (listByParents, getMany). The one
 * source of both the wiring's `satisfies` and the domain stubs (emit/stubs.ts), so every method asked has a stub.
 */
export function domainNeeds(contract: Contract): Map<string, DomainNeed[]> {
  const children = contract.resources.filter((r) => r.through);
  const relations = contract.fields.filter((f) => f.relation);
  const needs = new Map<string, DomainNeed[]>();
  for (const r of contract.resources) {
    const list: DomainNeed[] = [];
    if (r.owner !== "self" && r.owner !== "none" && !r.through)
      list.push({ method: "ownerOf", type: "OwnerOf", why: `owned through its ${r.owner}` });
    if (r.through) list.push({ method: "parentOf", type: "ParentOf", why: `owned through its parent ${r.through}` });
    const under = children.filter((c) => c.through === r.tag).map((c) => c.tag);
    if (under.length)
      list.push({
        method: "get",
        type: "Lookup",
        why: `the parent of ${under.join(", ")}: their operations answer its 404 / 410 first`,
      });
    const reads = (kind: string) =>
      relations.filter((f) => f.relation!.kind === kind && f.relation!.resource === r.tag).map((f) => f.coordinate);
    const model = `${ident(r.tag)}Domain.${r.schema}`;
    const [lists, names] = [reads("list"), reads("one")];
    if (lists.length)
      list.push({
        method: "listByParents",
        type: `ListByParents<${model}>`,
        why: `${lists.join(", ")} ${lists.length > 1 ? "list" : "lists"} it under a parent`,
      });
    if (names.length)
      list.push({
        method: "getMany",
        type: `GetMany<${model}>`,
        why: `${names.join(", ")} ${names.length > 1 ? "read" : "reads"} one by id`,
      });
    if (list.length) needs.set(r.tag, list);
  }
  return needs;
}

export function emitContract(contract: Contract, validators: Map<string, OperationValidators>): string {
  const resources = contract.resources.map(
    (r) =>
      `  ${prop(r.tag)}: { schema: ${quote(r.schema)}, id: ${quote(r.id)}, idPrefix: ${quote(r.idPrefix)}, owner: ${quote(r.owner)}, ${r.through ? `through: ${quote(r.through)}, ` : ""}path: ${quote(r.path)} },`,
  );
  const rest = [...contract.operations].map(([id, o]) => `  ${prop(id)}: ${JSON.stringify(o.ownership)},`);
  const roots = contract.fields.filter((f) => f.root);
  const graphql = roots.map((f) => `  ${quote(f.coordinate)}: ${JSON.stringify(f.ownership)},`);
  const inputs = roots.flatMap((f) => (f.input ? [`  ${quote(f.coordinate)}: ${inputEntry(f, validators)},`] : []));
  const restParents = [...contract.operations].flatMap(([id, o]) =>
    o.parent ? [`  ${prop(id)}: ${JSON.stringify(o.parent)},`] : [],
  );
  const graphqlParents = roots.flatMap((f) =>
    f.parent ? [`  ${quote(f.coordinate)}: ${JSON.stringify(f.parent)},`] : [],
  );
  const relations = contract.fields.flatMap((f) =>
    f.relation ? [`  ${quote(f.coordinate)}: ${JSON.stringify(f.relation)},`] : [],
  );
  const pairs = [...contract.operations].flatMap(([id, o]) =>
    o.graphql ? [`  ${prop(id)}: ${quote(o.graphql)},`] : [],
  );
  return [
    `import { idsFor, type Validator } from "twinspec/runtime";`,
    `import validators from "./validators.cjs";`,
    "",
    "/** Every scope an operation or field may ask for (x-scopes of the bearer scheme), with its description. */",
    "export const scopes = {",
    ...Object.entries(contract.scopes).map(([s, d]) => `  ${quote(s)}: ${quote(d)},`),
    "} as const;",
    "export type Scope = keyof typeof scopes;",
    "",
    "/** The resources (tags with x-resource): schema, identifying property, id prefix, owner property, URL template. */",
    "export const resources = {",
    ...resources,
    "} as const;",
    "export type ResourceTag = keyof typeof resources;",
    "",
    "/** New ids with each resource's prefix, the id one resource derives from another's, and an instance's URL. */",
    "export const { newId, derivedId, location } = idsFor(resources);",
    "",
    "/** Whose data a request acts on: an instance named by a path parameter or argument, a whole owned collection, or nobody's. */",
    'export type Ownership = { kind: "instance"; resource: ResourceTag; from: string } | { kind: "collection"; resource: ResourceTag } | { kind: "none" };',
    "",
    "/** By operationId. */",
    "export const restOwnership: Record<string, Ownership> = {",
    ...rest,
    "};",
    "",
    '/** By root field ("Query.book"). */',
    "export const graphqlOwnership: Record<string, Ownership> = {",
    ...graphql,
    "};",
    "",
    "/**",
    " * What must be live before an operation or root field of a resource owned through a parent runs: the instance a",
    ' * path parameter or argument names ("itself": a child collection\'s parent), or that instance\'s parents ("parents").',
    " */",
    'export type ParentRule = { resource: ResourceTag; from: string; of: "itself" | "parents" };',
    "",
    "/** By operationId. */",
    "export const restParents: Record<string, ParentRule> = {",
    ...restParents,
    "};",
    "",
    "/** By root field. */",
    "export const graphqlParents: Record<string, ParentRule> = {",
    ...graphqlParents,
    "};",
    "",
    "/** Relations (a field reading a resource through its paired REST collection or lookup), resolved over batch loaders: what is read, and the property batched on. */",
    'export const relations: Record<string, { kind: "list" | "one"; resource: ResourceTag; by: string; nullable?: boolean }> = {',
    ...relations,
    "};",
    "",
    "/** operationId → the GraphQL field it pairs with (x-graphql). */",
    "export const pairs: Record<string, string> = {",
    ...pairs,
    "};",
    "",
    "/**",
    " * The rules a root field's arguments share with its paired operation: arguments named like its path parameters,",
    " * and its body (one input object argument, or arguments named like the body's properties).",
    " */",
    "export interface InputRules {",
    "  operationId: string;",
    "  path?: { args: string[]; validate: Validator };",
    "  body?: { validate: Validator } & ({ arg: string } | { args: string[] });",
    "}",
    "",
    "export const graphqlInputs: Record<string, InputRules> = {",
    ...inputs,
    "};",
    "",
    ...emitRateLimits(contract.rateLimits),
    ...emitWebhooks(contract.webhooks),
    ...emitParts(contract.parts),
  ].join("\n");
}

function emitParts(parts: Contract["parts"]): string[] {
  if (parts.length === 0) return [];
  return [
    "/** The Twinspec parts openapi.yaml includes (x-twinspec-parts): their operations and fields are the framework's to serve. */",
    `export const parts = [${parts.map(quote).join(", ")}] as const;`,
    "",
  ];
}

function emitWebhooks(webhooks: Contract["webhooks"]): string[] {
  if (webhooks.length === 0) return [];
  return [
    "/**",
    " * The webhooks (openapi.yaml's webhooks:), by event type: the subscription field carrying the same event, whose",
    " * event it is (the owned resource, and the payload's property naming its instance; \"none\": nobody's), and the",
    " * scopes a token needs to register for it.",
    " */",
    "export const webhooks = {",
    ...webhooks.map(
      (w) =>
        `  ${prop(w.name)}: { field: ${quote(w.field)}, owner: ${JSON.stringify(w.owner)}, scopes: [${w.scopes.map(quote).join(", ")}] },`,
    ),
    "} as const;",
    "",
  ];
}

/** Each webhook's payload type, and the compiler's check that the domain publishes its event with that payload. */
function webhookTypes(webhooks: Contract["webhooks"]): string[] {
  if (webhooks.length === 0) return [];
  const data = (name: string) =>
    `NonNullable<webhooks[${quote(name)}]["post"]>["requestBody"]["content"]["application/json"]["data"]`;
  return [
    "",
    "/** Each webhook's payload (its body's `data`), by event type. */",
    "export type WebhookPayloads = {",
    ...webhooks.map((w) => `  ${prop(w.name)}: ${data(w.name)};`),
    "};",
    '/** The event the domain publishes is the webhook\'s payload (EventMap, `declare module "twinspec/events"`): a mismatch is a compile error here, once the domain declares the event. */',
    "type Publishes<Event extends Payload, Payload> = [Event, Payload];",
    "type Published<Name extends string, Payload> = Name extends keyof EventMap ? EventMap[Name] : Payload;",
    `export type WebhookEvents = [${webhooks.map((w) => `Publishes<Published<${quote(w.name)}, WebhookPayloads[${quote(w.name)}]>, WebhookPayloads[${quote(w.name)}]>`).join(", ")}];`,
  ];
}

function emitRateLimits({ budgets, rest, graphql }: Contract["rateLimits"]): string[] {
  return [
    "/**",
    " * Rate limits (x-rate-limit in openapi.yaml, @rateLimit in schema.graphql): each budget by name — what one caller may",
    " * spend per window (seconds): requests on REST, query cost on GraphQL —, and which budget each REST operation and",
    " * each GraphQL operation type spends.",
    " */",
    "export const rateLimits = {",
    "  budgets: {",
    ...Object.entries(budgets).map(([name, b]) => `    ${quote(name)}: { limit: ${b.limit}, window: ${b.window} },`),
    "  },",
    "  rest: {",
    ...Object.entries(rest).map(([id, name]) => `    ${prop(id)}: ${quote(name)},`),
    "  } as Record<string, string>,",
    "  graphql: {",
    ...Object.entries(graphql).map(([kind, name]) => `    ${kind}: ${quote(name)},`),
    '  } as Partial<Record<"query" | "mutation" | "subscription", string>>,',
    "} as const;",
    "",
  ];
}

function inputEntry(field: FieldPlan, validators: Map<string, OperationValidators>): string {
  const input = field.input!;
  const v = validators.get(input.operationId);
  const parts = [`operationId: ${quote(input.operationId)}`];
  const path = v?.params.path;
  if (input.pathArgs.length && path)
    parts.push(`path: { args: ${JSON.stringify(input.pathArgs)}, validate: validators.${path} }`);
  const body = input.body && v?.body[input.body.contentType];
  if (input.body && body) {
    const shape = "arg" in input.body ? `arg: ${quote(input.body.arg)}` : `args: ${JSON.stringify(input.body.args)}`;
    parts.push(`body: { ${shape}, validate: validators.${body} }`);
  }
  return `{ ${parts.join(", ")} }`;
}

export function emitResolversByTag(contract: Contract): string {
  const { graphql } = tagsWithFiles(contract);
  const written = contract.fields.filter((f) => !f.relation && !f.part);
  const types = [...new Set(written.map((f) => f.type))].sort();
  const lines = [
    `import type { ${[...types.map((t) => `${t}Resolvers`), "Resolvers"].join(", ")} } from "./graphql.js";`,
    "",
    "/** T with the resolvers K required. */",
    "type Must<T, K extends keyof T> = T & Required<Pick<T, K>>;",
    "",
    "/**",
    " * The resolvers each src/graphql/<tag>.ts exports as `resolvers`: every root field, and every field its domain",
    " * object does not carry. `npm run generate` writes a stub for each new one; a missing one is a type error.",
    " */",
    "export interface ResolversByTag {",
  ];
  for (const tag of graphql) {
    lines.push(`  ${prop(tag)}: {`);
    const byType = new Map<string, string[]>();
    for (const f of written.filter((x) => x.tag === tag)) byType.set(f.type, [...(byType.get(f.type) ?? []), f.field]);
    for (const [type, fields] of byType)
      lines.push(`    ${type}: Must<${type}Resolvers, ${fields.map(quote).join(" | ")}>;`);
    lines.push("  };");
  }
  lines.push("}", "", "/** The custom scalars' implementations (src/graphql/scalars.ts). */");
  lines.push(
    `export type ScalarResolvers = Required<Pick<Resolvers, ${contract.scalars.length ? contract.scalars.map(quote).join(" | ") : "never"}>>;`,
    "",
  );
  return lines.join("\n");
}

export function emitWiring(contract: Contract, modelFields: Map<string, string[]>): string {
  const { rest, graphql, domain } = tagsWithFiles(contract);
  const children = contract.resources.filter((r) => r.through);
  const parents = contract.resources.filter((r) => children.some((c) => c.through === r.tag));
  const byTag = new Map(contract.resources.map((r) => [r.tag, r]));
  const relations = contract.fields.filter((f) => f.relation);
  // What the compiler asks of each domain service (domainNeeds): the domain stubs have each of these methods.
  const asked = [...domainNeeds(contract)].map(
    ([tag, needs]) => `${prop(tag)}: ${needs.map((n) => n.type).join(" & ")}`,
  );
  const lines = [
    `import type { RestHandlers } from "./rest.js";`,
    `import type { Resolvers } from "./graphql.js";`,
    `import type { ResourceTag } from "./contract.js";`,
    `import type { AppDefinition, GraphqlContext as BaseGraphqlContext, OwnerLookup, ParentCheck, RestContext as BaseRestContext, ServiceDeps } from "twinspec";`,
    ...relationImports(relations),
    `import * as contract from "./contract.js";`,
    `import { operationSpecs, restRoutes } from "./rest.js";`,
    `import { persistedDocuments } from "./persisted-documents.js";`,
    ...(contract.webhooks.length
      ? [`import type { webhooks } from "./openapi.js";`, `import type { EventMap } from "twinspec/events";`]
      : []),
    `import { createLoaders } from "../src/graphql/loaders.js";`,
    ...domain.map((t) => `import * as ${ident(t)}Domain from "../src/domain/${t}.js";`),
    ...rest.map((t) => `import { handlers as ${ident(t)}Handlers } from "../src/rest/${t}.js";`),
    ...graphql.map((t) => `import { resolvers as ${ident(t)}Resolvers } from "../src/graphql/${t}.js";`),
    `import { scalars } from "../src/graphql/scalars.js";`,
    "",
    "/** Every resource's domain service, by tag: what `createService` of src/domain/<tag>.ts returns. */",
    "export interface Services {",
    ...domain.map((t) => `  ${prop(t)}: ReturnType<typeof ${ident(t)}Domain.createService>;`),
    "}",
    "",
    "/** A resource owned through one of its properties says who owns an instance (undefined: there is none). */",
    "type OwnerOf = { ownerOf(id: string): Promise<string | undefined> };",
    "/** A resource owned through a parent says which parent an instance has (undefined: there is no such instance). */",
    "type ParentOf = { parentOf(id: string): Promise<string | undefined> };",
    "/** A parent answers its own 404 / 410 (NotFoundError, GoneError) for the children under it. */",
    "type Lookup = { get(id: string): Promise<unknown> };",
    ...RELATION_TYPES,
    "",
    "/** What each createService receives (src/domain/<tag>.ts): the store, bus, queue and log, and every service, typed. */",
    "export type Deps = ServiceDeps<Services>;",
    "",
    'export function createServices(base: Omit<ServiceDeps, "services">): Services {',
    "  // Each service reaches the others through deps.services, filled in once all are built.",
    "  const services = {} as Services;",
    "  const deps: Deps = { ...base, services };",
    "  const made = {",
    ...domain.map((t) => `    ${prop(t)}: ${ident(t)}Domain.createService(deps),`),
    "  };",
    `  return Object.assign(services, made satisfies { ${asked.join("; ")} });`,
    "}",
    "",
    "/** Who owns an instance of a resource: a token whose sub is that id acts for it (undefined: no such instance; null: nobody owns it). */",
    "export function ownerLookup(services: Services): OwnerLookup {",
    "  const lookup: OwnerLookup = async (resource, id) => {",
    "    switch (resource as ResourceTag) {",
    ...contract.resources.map((r) =>
      r.through
        ? `      case ${quote(r.tag)}: {\n        const parent = await services.${ident(r.tag)}.parentOf(id);\n        return parent === undefined ? undefined : lookup(${quote(r.through)}, parent);\n      }`
        : r.owner === "self"
          ? `      case ${quote(r.tag)}:\n        return id;`
          : r.owner === "none"
            ? `      case ${quote(r.tag)}:\n        return null;`
            : `      case ${quote(r.tag)}:\n        return services.${ident(r.tag)}.ownerOf(id);`,
    ),
    "    }",
    "  };",
    "  return lookup;",
    "}",
    "",
    "/** Fails with the parent's own 404 / 410 when what a child's operation names is under a parent that cannot be acted on. */",
    ...(children.length === 0
      ? [
          "export function parentCheck(services: Services): ParentCheck {",
          "  void services;",
          "  return async () => {};",
          "}",
        ]
      : [
          "export function parentCheck(services: Services): ParentCheck {",
          "  const live = async (resource: string, id: string): Promise<void> => {",
          "    switch (resource as ResourceTag) {",
          ...parents.map(
            (r) =>
              `      case ${quote(r.tag)}:\n        await services.${ident(r.tag)}.get(id);${r.through ? `\n        await parentsOf(${quote(r.tag)}, id);` : ""}\n        return;`,
          ),
          "    }",
          "  };",
          "  const parentsOf = async (resource: string, id: string): Promise<void> => {",
          "    switch (resource as ResourceTag) {",
          ...children.map(
            (r) =>
              `      case ${quote(r.tag)}: {\n        const parent = await services.${ident(r.tag)}.parentOf(id);\n        if (parent !== undefined) await live(${quote(r.through!)}, parent);\n        return;\n      }`,
          ),
          "    }",
          "  };",
          '  return (rule, id) => (rule.of === "itself" ? live(rule.resource, id) : parentsOf(rule.resource, id));',
          "}",
        ]),
    "",
    "/** Every operation's handler, from src/rest/<tag>.ts. */",
    `export const restHandlers: RestHandlers = { ${rest.map((t) => `...${ident(t)}Handlers`).join(", ")} };`,
    "",
    ...emitRelationResolvers(relations, byTag),
    "",
    "/** Every resolver, from src/graphql/<tag>.ts and src/graphql/scalars.ts, and the relations'. */",
    `export const resolvers: Resolvers[] = [scalars, ${graphql.map((t) => `${ident(t)}Resolvers`).join(", ")}, relationResolvers];`,
    "",
    "/** What every resolver receives (codegen.yml contextType): the services, this operation's loaders, the caller. */",
    "export type GraphqlContext = BaseGraphqlContext<Services, ReturnType<typeof createLoaders>>;",
    "",
    "/** What every REST handler receives as `ctx`: the request context, the services, the caller, the preconditions. */",
    "export type RestContext = BaseRestContext<Services>;",
    "",
    "/** The application, for the framework: buildApp({ definition, … }), serve(definition). */",
    "export const definition: AppDefinition<Services> = { contract, operationSpecs, restRoutes, restHandlers, resolvers, scalars, createServices, ownerLookup, parentCheck, createLoaders, persistedDocuments };",
    "",
    "/** Each domain model carries the fields of its GraphQL type that have no resolver (a missing one is named here). */",
    "type Carries<M, K extends keyof M> = M;",
    ...[...contract.models].map(([type, tag]) => {
      const fields = modelFields.get(type) ?? [];
      return `export type ${type}Model = Carries<${ident(tag)}Domain.${type}, ${fields.length ? fields.map(quote).join(" | ") : "never"}>;`;
    }),
    ...webhookTypes(contract.webhooks),
    "",
  ];
  return lines.join("\n");
}

/** graphql-codegen mappers: each resource's GraphQL type resolves from its domain model. */
export function mappers(contract: Contract): Record<string, string> {
  return Object.fromEntries([...contract.models].map(([type, tag]) => [type, `../src/domain/${tag}.js#${type}`]));
}

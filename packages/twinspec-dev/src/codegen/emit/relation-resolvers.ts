// What generated/wiring.ts says of relations (model/relations.ts): which batched method the compiler asks of each
// domain service a relation reads (listByParents for a list, getMany for one instance), and the relations'
// resolvers, each over a per-request batch loader (relationLoader, lookupLoader), none written in src/graphql/.
import type { FieldPlan, Resource } from "../model/contract.js";
import { ident, quote } from "../model/operations.js";

const noun = (schema: string) => schema.charAt(0).toLowerCase() + schema.slice(1);

/** The imports from twinspec the relations' resolvers use. */
export function relationImports(relations: FieldPlan[]): string[] {
  const used = (kind: string, nullable?: boolean) =>
    relations.some((f) => f.relation!.kind === kind && (nullable === undefined || !!f.relation!.nullable === nullable));
  const names = [
    ...(used("one", true) ? ["loadOptional"] : []),
    ...(used("one", false) ? ["loadRequired"] : []),
    ...(used("one") ? ["lookupLoader"] : []),
    ...(used("list") ? ["relationLoader", "selectedFields"] : []),
  ];
  return names.length ? [`import { ${names.join(", ")} } from "twinspec";`] : [];
}

/** The types of the batched methods. */
export const RELATION_TYPES = [
  "/** A resource a relation lists: its live instances under each of many parents, in one query (`fields`: the ones asked for). */",
  "type ListByParents<M> = { listByParents(parentIds: readonly string[], fields?: readonly string[]): Promise<Map<string, M[]>> };",
  "/** A resource a relation names one instance of: the live ones among many ids, in one query, in any order (missing or deleted: left out). */",
  "type GetMany<M> = { getMany(ids: readonly string[]): Promise<M[]> };",
];

/** `const relationResolvers: Resolvers = { … }` and what it needs. */
export function emitRelationResolvers(relations: FieldPlan[], byTag: Map<string, Resource>): string[] {
  const kinds = new Set(relations.map((f) => f.relation!.kind));
  const resolver = (f: FieldPlan): string => {
    const { kind, resource, by, nullable } = f.relation!;
    const service = `context.services.${ident(resource)}`;
    if (kind === "list") {
      return `    ${f.field}: (parent, _args, context, info) =>\n      relationLoader(context, ${quote(f.coordinate)}, selectedFields(info), (ids, fields) => listed(${service}).listByParents(ids, fields)).load(parent.${by}),`;
    }
    const read = byTag.get(resource)!;
    const loader = `lookupLoader(context, ${quote(resource)}, (ids) => fetched(${service}).getMany(ids), (item) => item.${read.id})`;
    return nullable
      ? `    ${f.field}: (parent, _args, context) =>\n      loadOptional(${loader}, parent.${by}),`
      : `    ${f.field}: (parent, _args, context) =>\n      loadRequired(${loader}, ${quote(noun(read.schema))}, parent.${by}),`;
  };
  return [
    "/**",
    " * The relations' resolvers (a field reading another resource through its paired REST collection or lookup): each",
    " * over a per-request batch loader, one query per relation (and set of fields) however many parents (no N+1).",
    " */",
    ...(kinds.has("list") ? ["const listed = <M>(service: ListByParents<M>) => service;"] : []),
    ...(kinds.has("one") ? ["const fetched = <M>(service: GetMany<M>) => service;"] : []),
    ...(kinds.size ? [""] : []),
    "const relationResolvers: Resolvers = {",
    ...[...new Set(relations.map((f) => f.type))].flatMap((type) => [
      `  ${type}: {`,
      ...relations.filter((f) => f.type === type).map(resolver),
      "  },",
    ]),
    "};",
  ];
}

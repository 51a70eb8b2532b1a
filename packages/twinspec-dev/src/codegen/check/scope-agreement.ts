// One auth model across both specs: each operation paired with a GraphQL field (x-graphql) needs the same scopes over REST
// (the operation's `security`) and GraphQL (the field's `@auth`, else its type's). Every mismatch is named.
import { buildSchema, isObjectType, type GraphQLSchema } from "graphql";
import { collectOperations } from "../model/operations.js";
import type { JsonObject } from "../load/spec.js";

export interface ScopeMismatch {
  operationId: string;
  field: string;
  rest: string;
  graphql: string;
}

function directiveScopes(node: {
  astNode?: {
    directives?: readonly {
      name: { value: string };
      arguments?: readonly { name: { value: string }; value: unknown }[];
    }[];
  } | null;
}) {
  const auth = node.astNode?.directives?.find((d) => d.name.value === "auth");
  const list = auth?.arguments?.find((a) => a.name.value === "scopes")?.value as
    | { kind: string; values?: { value: string }[] }
    | undefined;
  return list?.kind === "ListValue" ? list.values!.map((v) => v.value) : undefined;
}

function graphqlScopes(schema: GraphQLSchema, path: string): string[] | undefined | null {
  const [typeName, fieldName] = path.split(".");
  const type = schema.getType(typeName);
  if (!isObjectType(type) || !type.getFields()[fieldName]) return null;
  return directiveScopes(type.getFields()[fieldName]) ?? directiveScopes(type);
}

const show = (scopes: string[] | undefined) =>
  scopes === undefined ? "(public)" : scopes.length ? [...scopes].sort().join(" ") : "(any token)";

/** `pairs`: operationId → the field it pairs with, or the fields (a lookup's root field, then its relation fields). */
export function checkScopes(
  doc: JsonObject,
  sdl: string | GraphQLSchema,
  pairs: Record<string, string | readonly string[]>,
  file = "openapi.yaml",
): ScopeMismatch[] {
  const schema = typeof sdl === "string" ? buildSchema(sdl) : sdl;
  const operations = new Map(collectOperations(doc, file).map((op) => [op.operationId, op]));
  const mismatches: ScopeMismatch[] = [];
  for (const [operationId, field] of Object.entries(pairs).flatMap(([id, fields]) =>
    (typeof fields === "string" ? [fields] : fields).map((f) => [id, f] as const),
  )) {
    const op = operations.get(operationId);
    const gql = graphqlScopes(schema, field);
    if (!op || gql === null) {
      mismatches.push({
        operationId,
        field,
        rest: op ? "" : "(no such operation)",
        graphql: gql === null ? "(no such field)" : "",
      });
      continue;
    }
    const rest = op.security.length === 0 ? undefined : [...new Set(op.security[0].flatMap((r) => r.scopes))];
    // `admin` on REST is an extra gate (merge); GraphQL pairs compare the capability scopes.
    if (show(rest) !== show(gql ?? undefined))
      mismatches.push({ operationId, field, rest: show(rest), graphql: show(gql ?? undefined) });
  }
  return mismatches;
}

export function formatScopes(mismatches: ScopeMismatch[]): string {
  return [
    `REST and GraphQL ask for different scopes for ${mismatches.length} capabilit${mismatches.length === 1 ? "y" : "ies"} (pairs: x-graphql in openapi.yaml):`,
    ...mismatches.map(
      (m) => `  ${m.operationId} ↔ ${m.field}: REST needs ${m.rest || "?"}, GraphQL needs ${m.graphql || "?"}`,
    ),
  ].join("\n");
}

// Rate limits, as the specs declare them. openapi.yaml: `x-rate-limit: { limit, window }` at the document's top
// level (the default budget), on a tag (a budget shared by the operations whose first tag it is) or on an operation
// (its own budget); the nearest declaration wins. schema.graphql: `@rateLimit(limit:, window:)` on the schema (the
// GraphQL default, charged in query cost) or on a root type (that type's own budget). `limit` is what one caller may
// spend per `window` seconds. Each budget is named by where it is declared, so configuration can override it:
// "default", "tag:<tag>", "op:<operationId>", "graphql", "graphql:<RootType>".
import { getDirectiveValues, type GraphQLSchema } from "graphql";
import type { Operation } from "./operations.js";
import { isObject, type Json, type JsonObject } from "../load/spec.js";
import { isPolicyName } from "twinspec/internals";

interface Budget {
  /** requests (REST) or query cost (GraphQL) one caller may spend per window */
  limit: number;
  /** seconds */
  window: number;
}

export interface RateLimits {
  /** every budget, by name */
  budgets: Record<string, Budget>;
  /** operationId → its budget's name (operations without one are not limited) */
  rest: Record<string, string>;
  /** GraphQL operation type → its budget's name */
  graphql: Partial<Record<"query" | "mutation" | "subscription", string>>;
}

type Problem = (where: string, message: string) => void;

/** One declaration: { limit, window }, both positive integers. */
function budgetOf(raw: Json | undefined, where: string, problem: Problem): Budget | undefined {
  if (raw === undefined) return undefined;
  const ok = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n > 0;
  if (
    !isObject(raw) ||
    !ok(raw.limit) ||
    !ok(raw.window) ||
    Object.keys(raw).some((k) => k !== "limit" && k !== "window")
  ) {
    problem(where, "x-rate-limit must be { limit: <requests per window>, window: <seconds> }, both positive integers");
    return undefined;
  }
  return { limit: raw.limit as number, window: raw.window as number };
}

/** The REST budgets: document default, then the first tag's, then the operation's own. */
export function readRestRateLimits(
  doc: JsonObject,
  operations: Operation[],
  problem: Problem,
): Pick<RateLimits, "budgets" | "rest"> {
  const budgets: Record<string, Budget> = {};
  const fallback = budgetOf(doc["x-rate-limit"], "/x-rate-limit", problem);
  if (fallback) budgets.default = fallback;
  const tags = Array.isArray(doc.tags) ? doc.tags : [];
  tags.forEach((tag, i) => {
    if (!isObject(tag) || typeof tag.name !== "string") return;
    const budget = budgetOf(tag["x-rate-limit"], `/tags/${i}/x-rate-limit`, problem);
    // The budget's name is the policy's name in the RateLimit fields: an sf-string, printable ASCII only.
    if (budget && !isPolicyName(tag.name))
      problem(
        `/tags/${i}/x-rate-limit`,
        `a tag with a budget needs a printable ASCII name (the RateLimit fields name the budget "tag:${tag.name}")`,
      );
    else if (budget) budgets[`tag:${tag.name}`] = budget;
  });
  const rest: Record<string, string> = {};
  for (const op of operations) {
    const own = budgetOf(op.extensions["x-rate-limit"], `/paths/${op.operationId}/x-rate-limit`, problem);
    if (own) budgets[`op:${op.operationId}`] = own;
    const name = own
      ? `op:${op.operationId}`
      : budgets[`tag:${op.tags[0]}`]
        ? `tag:${op.tags[0]}`
        : fallback
          ? "default"
          : undefined;
    if (name) rest[op.operationId] = name;
  }
  return { budgets, rest };
}

/** The GraphQL budgets: @rateLimit on the schema (every operation type), then on a root type. */
export function readGraphqlRateLimits(
  schema: GraphQLSchema,
  problem: Problem,
): Pick<RateLimits, "budgets" | "graphql"> {
  const budgets: Record<string, Budget> = {};
  const graphql: RateLimits["graphql"] = {};
  const definition = schema.getDirective("rateLimit");
  if (!definition) return { budgets, graphql };
  // On the definition or an extension (`extend schema @rateLimit(…)`); graphql-js refuses it applied twice.
  const declared = (node: { astNode?: unknown; extensionASTNodes?: readonly unknown[] }, where: string) => {
    const found = [node.astNode, ...(node.extensionASTNodes ?? [])]
      .map((n) => n && getDirectiveValues(definition, n as never))
      .find((v) => v !== undefined && v !== null);
    return found
      ? budgetOf(found as JsonObject, where, (w) =>
          problem(w, "@rateLimit needs a positive limit and window (seconds)"),
        )
      : undefined;
  };
  const fallback = declared(schema, "schema");
  if (fallback) budgets.graphql = fallback;
  for (const [kind, type] of [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
    ["subscription", schema.getSubscriptionType()],
  ] as const) {
    const own = type ? declared(type, type.name) : undefined;
    if (own) budgets[`graphql:${type!.name}`] = own;
    const name = own ? `graphql:${type!.name}` : fallback ? "graphql" : undefined;
    if (name && type) graphql[kind] = name;
  }
  return { budgets, graphql };
}

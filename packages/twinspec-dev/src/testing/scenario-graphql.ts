// A scenario step over GraphQL: the root field its operation is paired with (x-graphql), called with the step's
// parameters and body as the paired walks map them (arguments named like the path and query parameters; the body as
// the one input argument, or spread over arguments named like its properties), its answer read as the step's
// response — the field's data as the body, and as the status the one the framework's table (ERRORS) gives the
// error's extensions.code. A step GraphQL cannot say (no pair, a header, a status with no code, a response header
// read) runs over REST, and says why.
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from "graphql";
import type { AppDefinition, InputRules } from "twinspec/internals";
import { ERRORS } from "twinspec/internals";
import { bodyPointers, expressionsOf, statusesAskedBy, type Step } from "./arazzo.js";
import { gql } from "./client.js";
import { fieldCall, type Operation, type Spec } from "./spec.js";

/** How a step runs in a workflow's GraphQL run: through its paired root field, or over REST and why. */
export type GraphqlPlan =
  | { over: "graphql"; coordinate: string; root: "Query" | "Mutation"; field: GraphQLField<unknown, unknown> }
  | { over: "rest"; why: string };

/**
 * The GraphQL codes the framework answers a status with (its error table), e.g. 409 → CONFLICT.
 *
 * @param status - an HTTP status
 */
export const codesOf = (status: number): string[] => [
  ...new Set(
    Object.values(ERRORS)
      .filter((e) => e.status === status)
      .map((e) => e.code),
  ),
];

/**
 * How the step runs over GraphQL (or why it cannot).
 *
 * @param spec - the kit's reading of the specs
 * @param definition - the application (its `contract.pairs`)
 * @param op - the step's operation
 * @param step - the step
 */
export function graphqlPlan(
  spec: Spec,
  definition: Pick<AppDefinition, "contract">,
  op: Operation,
  step: Step,
): GraphqlPlan {
  const coordinate = definition.contract.pairs[op.operationId];
  if (!coordinate) return { over: "rest", why: `${op.operationId} has no GraphQL pair (x-unpaired)` };
  const [root, name] = coordinate.split(".");
  const type =
    root === "Query"
      ? spec.graphqlSchema.getQueryType()
      : root === "Mutation"
        ? spec.graphqlSchema.getMutationType()
        : undefined;
  const field = type?.getFields()[name];
  if (!field || (root !== "Query" && root !== "Mutation"))
    return { over: "rest", why: `${op.operationId} pairs with ${coordinate}, no root field of Query or Mutation` };
  for (const p of step.parameters ?? []) {
    const place = p.in ?? "query";
    if (place !== "path" && place !== "query")
      return { over: "rest", why: `it sends the ${place} ${p.name}, which ${coordinate} has no argument for` };
    if (!field.args.some((a) => a.name === p.name))
      return { over: "rest", why: `${coordinate} has no argument ${p.name}` };
  }
  const rules = spec.graphqlInputs[coordinate];
  if (op.body && !rules?.body) return { over: "rest", why: `no argument of ${coordinate} takes its body` };
  const unsaid = statusesAskedBy(step).find((s) => s >= 300 && !codesOf(s).length);
  if (unsaid) return { over: "rest", why: `it asks for ${unsaid}, which GraphQL answers with no code` };
  if (expressionsOf(step).some((e) => e.includes("$response.header")))
    return { over: "rest", why: "it reads a response header, which a GraphQL field has none of" };
  for (const pointer of expressionsOf(step).flatMap(bodyPointers)) {
    const missing = missingField(field.type, pointer);
    if (missing) return { over: "rest", why: `it reads /${pointer.join("/")}, which ${missing}` };
  }
  return { over: "graphql", coordinate, root, field };
}

/** A GraphQL error as the kit reads it. */
interface FieldError {
  message?: string;
  path?: (string | number)[];
  extensions?: { code?: string };
}

/**
 * Calls the step's paired root field as the admin, its arguments from the step's parameters and body; answers what
 * the step reads: the field's data as the body, and the status the framework's table gives the error's code (a
 * field answered without an error: the success the step asks for, else the operation's first).
 *
 * @param base - the server's URL
 * @param plan - the step's plan (over GraphQL)
 * @param rules - what the field's arguments share with the operation (`contract.graphqlInputs`): where the body goes
 * @param op - the step's operation
 * @param step - the step
 * @param values - the step's parameters by name and its body (`body`), evaluated
 * @param relations - the relation coordinates (`contract.relations`): not selected unless the step reads them
 */
export async function sendOverGraphql(
  base: string,
  plan: Extract<GraphqlPlan, { over: "graphql" }>,
  rules: InputRules | undefined,
  op: Operation,
  step: Step,
  values: { params: Record<string, unknown>; body: unknown },
  relations: Record<string, unknown>,
) {
  const args: Record<string, unknown> = { ...values.params };
  if (rules?.body && values.body !== undefined) {
    if ("arg" in rules.body) args[rules.body.arg] = values.body;
    else for (const a of rules.body.args) if (isBodyObject(values.body) && a in values.body) args[a] = values.body[a];
  }
  // A pointer's list indexes select nothing: the list's items are selected.
  const pointers = expressionsOf(step)
    .flatMap(bodyPointers)
    .map((p) => p.filter((s) => !/^\d+$/.test(s)));
  const { query, variables } = fieldCall(plan.root, plan.field, args, {
    selection: selectionOf(plan.field.type, pointers, relations),
  });
  const reply = await gql(base, query, variables);
  const errors = ((reply.json?.errors ?? []) as FieldError[]).filter(
    (e) => !e.path?.length || e.path[0] === plan.field.name,
  );
  const asked = statusesAskedBy(step);
  const code = errors[0]?.extensions?.code;
  let statusCode: number | undefined;
  if (errors.length) {
    const statuses: number[] = Object.values(ERRORS)
      .filter((e) => e.code === code)
      .map((e) => e.status);
    statusCode = asked.find((s) => statuses.includes(s)) ?? statuses[0];
  } else {
    const declared = Object.keys(op.responses)
      .map(Number)
      .filter((s) => s >= 200 && s < 300);
    statusCode = asked.find((s) => declared.includes(s)) ?? declared[0] ?? 200;
  }
  return {
    statusCode,
    body: reply.json?.data?.[plan.field.name] ?? null,
    header: Object.fromEntries(reply.headers),
    shown: `POST /graphql ${query} ${JSON.stringify(variables).slice(0, 300)}`,
    answer: `${errors.length ? `${code ?? "an error without a code"} (read as ${statusCode ?? "no status"})` : `read as ${statusCode}`} ${reply.text.slice(0, 300)}`,
  };
}

/** Where a body pointer leaves the GraphQL type it reads ("the type Job has no field orderUrl"); undefined when it does not. */
function missingField(type: GraphQLOutputType, pointer: string[]): string | undefined {
  let at = getNamedType(type);
  for (const segment of pointer) {
    if (/^\d+$/.test(segment)) continue;
    if (!isObjectType(at)) return isLeafType(at) ? `${at.name} has no field ${segment}` : undefined;
    const field = at.getFields()[segment];
    if (!field) return `the type ${at.name} has no field ${segment}`;
    at = getNamedType(field.type);
  }
  return undefined;
}

const isBodyObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What a field's answer is selected with: every leaf field of its type, and its object fields (not relations, not
 * @unpaired, two levels down), plus whatever the step's pointers read; "" for a leaf type.
 */
function selectionOf(
  type: GraphQLOutputType,
  pointers: string[][],
  relations: Record<string, unknown>,
  depth = 0,
): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return "";
  if (!isObjectType(named)) return " { __typename }";
  const parts: string[] = [];
  for (const field of Object.values(named.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const under = pointers.filter((p) => p[0] === field.name).map((p) => p.slice(1));
    const inner = getNamedType(field.type);
    if (isLeafType(inner)) {
      parts.push(field.name);
      continue;
    }
    const unpaired = field.astNode?.directives?.some((d) => d.name.value === "unpaired");
    if (under.length || (depth < 2 && !unpaired && !(`${named.name}.${field.name}` in relations)))
      parts.push(`${field.name}${selectionOf(field.type, under, relations, depth + 1)}`);
  }
  return ` { ${parts.join(" ") || "__typename"} }`;
}

// Limits checked before execution, as validation rules: depth, cost, aliases, directives, a cap on list-size
// arguments, and a time budget. Introspection fields (__schema, __type, __typename) are exempt from depth and cost.
// Each measures every fragment once, however often it is spread: the work is linear in the document.
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type GraphQLField,
  type GraphQLNamedType,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type OperationTypeNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

export interface Limits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  /** most directives one document may apply */
  maxDirectives: number;
  /** largest value of a list-size argument (first, limit) */
  maxListSize: number;
  /** assumed size of a list field without a size argument, for cost */
  defaultListSize: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxDepth: 10,
  maxCost: 5000,
  maxAliases: 30,
  maxDirectives: 50,
  maxListSize: 100,
  defaultListSize: 10,
};

/** Arguments that say how many items a list field returns. */
const LIST_SIZE_ARGS = new Set(["first", "limit"]);

type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** What an operation of a document is and costs. */
export interface OperationCost {
  type: OperationTypeNode;
  cost: number;
}

export function depthLimit(max: number): ValidationRule {
  return (context) => {
    // A fragment's depth is the same in every operation of the document.
    const memo = new Map<string, number>();
    return {
      OperationDefinition(op) {
        const depth = depthOf(op.selectionSet, context, memo);
        if (depth > max) {
          context.reportError(
            new GraphQLError(`The operation nests ${depth} levels deep; at most ${max} are allowed.`, {
              nodes: [op],
              extensions: { code: "DEPTH_LIMIT_EXCEEDED", limit: max, depth },
            }),
          );
        }
      },
    };
  };
}

export function aliasLimit(max: number): ValidationRule {
  return (context) => {
    let aliases = 0;
    return {
      Field(field) {
        if (field.alias) aliases++;
      },
      Document: {
        leave(document) {
          if (aliases > max) {
            context.reportError(
              new GraphQLError(`The document uses ${aliases} aliases; at most ${max} are allowed.`, {
                nodes: [document],
                extensions: { code: "ALIAS_LIMIT_EXCEEDED", limit: max, aliases },
              }),
            );
          }
        },
      },
    };
  };
}

export function directiveLimit(max: number): ValidationRule {
  return (context) => {
    let directives = 0;
    return {
      Directive() {
        directives++;
      },
      Document: {
        leave(document) {
          if (directives > max) {
            context.reportError(
              new GraphQLError(`The document applies ${directives} directives; at most ${max} are allowed.`, {
                nodes: [document],
                extensions: { code: "DIRECTIVE_LIMIT_EXCEEDED", limit: max, directives },
              }),
            );
          }
        },
      },
    };
  };
}

/** Thrown out of validation when the clock passes the deadline. */
export class TimeBudgetExceeded extends Error {}

/** How many nodes are visited between two looks at the clock. */
const CLOCK_EVERY = 256;

/**
 * Validation stops (TimeBudgetExceeded, out of `validate`) once `deadline` (performance.now()) has passed, looked at
 * every few nodes: the other rules run between.
 */
export function timeBudget(deadline: number): ValidationRule {
  return () => {
    let nodes = 0;
    return {
      enter() {
        if (++nodes % CLOCK_EVERY === 0 && performance.now() > deadline) throw new TimeBudgetExceeded();
      },
    };
  };
}

/**
 * Every object field costs 1, leaf fields 0; a list multiplies what is under it by its size. `costs` receives each
 * operation's cost, by name ("" for an anonymous one), for the rate limits to charge, also when it is refused.
 */
export function costLimit(
  limits: Pick<Limits, "maxCost" | "maxListSize" | "defaultListSize">,
  variables: Variables,
  costs?: Map<string, OperationCost>,
): ValidationRule {
  return (context) => ({
    OperationDefinition(op) {
      const root = context.getSchema().getRootType(op.operation);
      if (!root) return;
      const found = costOf(op.selectionSet, root, context, {
        variables: withDefaults(op, variables),
        limits,
        memo: new Map(),
      });
      const cost = Math.min(found, Number.MAX_SAFE_INTEGER);
      // What the rate limits charge, refused or not: at most what the server would let one operation cost.
      costs?.set(op.name?.value ?? "", { type: op.operation, cost: Math.min(cost, limits.maxCost) });
      if (cost > limits.maxCost) {
        context.reportError(
          new GraphQLError(
            `The operation costs ${cost}; at most ${limits.maxCost} is allowed. Ask for fewer items (first/limit) or fewer nested lists.`,
            {
              nodes: [op],
              extensions: { code: "COST_LIMIT_EXCEEDED", limit: limits.maxCost, cost },
            },
          ),
        );
      }
    },
  });
}

/** first/limit must be an integer from 1 to `max`, as a literal or as a variable's value. */
export function listSizeCap(max: number, variables: Variables): ValidationRule {
  return (context) => {
    let vars: Record<string, unknown> = {};
    return {
      OperationDefinition(op) {
        vars = withDefaults(op, variables);
      },
      Argument(arg) {
        if (!LIST_SIZE_ARGS.has(arg.name.value) || !context.getArgument()) return;
        const value = arg.value.kind === Kind.VARIABLE ? vars[arg.value.name.value] : valueFromASTUntyped(arg.value);
        if (value === undefined || value === null) return;
        if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max) {
          const field = context.getFieldDef()?.name ?? "field";
          context.reportError(
            new GraphQLError(
              `${field}(${arg.name.value}:) must be an integer from 1 to ${max}, got ${JSON.stringify(value)}.`,
              {
                nodes: [arg],
                extensions: { code: "BAD_USER_INPUT", argument: arg.name.value, limit: max },
              },
            ),
          );
        }
      },
    };
  };
}

/** Whether a list size in the document comes from a variable: then cost and the cap are checked per request. */
export function sizesFromVariables(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Argument(arg) {
      if (LIST_SIZE_ARGS.has(arg.name.value) && arg.value.kind === Kind.VARIABLE) found = true;
    },
  });
  return found;
}

function withDefaults(op: OperationDefinitionNode, variables: Variables): Record<string, unknown> {
  const values: Record<string, unknown> = { ...variables };
  for (const def of op.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (values[name] === undefined && def.defaultValue) values[name] = valueFromASTUntyped(def.defaultValue);
  }
  return values;
}

/**
 * The depth of a selection set, each fragment measured once (by name): a document whose fragments spread each other
 * many times is measured in time linear in its size. A cycle (NoFragmentCyclesRule reports it) counts as nothing.
 */
function depthOf(set: SelectionSetNode, context: ValidationContext, memo: Map<string, number>): number {
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith("__")) continue;
      max = Math.max(max, 1 + (sel.selectionSet ? depthOf(sel.selectionSet, context, memo) : 0));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, context, memo));
    } else {
      max = Math.max(
        max,
        fragmentMeasure(sel.name.value, context, memo, (fragment) => depthOf(fragment.selectionSet, context, memo)),
      );
    }
  }
  return max;
}

/** `measure` of the fragment `name`, taken once per validation: 0 while it is being taken (a cycle) or when unknown. */
function fragmentMeasure(
  name: string,
  context: ValidationContext,
  memo: Map<string, number>,
  measure: (fragment: FragmentDefinitionNode) => number,
): number {
  const known = memo.get(name);
  if (known !== undefined) return known;
  const fragment = context.getFragment(name);
  if (!fragment) return 0;
  memo.set(name, 0);
  const value = measure(fragment);
  memo.set(name, value);
  return value;
}

/**
 * The cost of a selection set. A fragment spread again where it was already spread into the same selection adds
 * nothing, as execution collects it once; every fragment's cost is taken once (by name, for one operation's
 * variables), so the work is linear in the document even when the cost it finds is astronomical.
 */
function costOf(
  set: SelectionSetNode,
  parent: GraphQLNamedType,
  context: ValidationContext,
  measure: CostMeasure,
  spread = new Set<string>(),
): number {
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith("__")) continue;
      const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
      const type = def && getNamedType(def.type);
      if (!def || !type || !isCompositeType(type) || !sel.selectionSet) continue;
      const size = isListType(getNullableType(def.type)) ? listSize(def, sel, measure.variables, measure.limits) : 1;
      cost += 1 + size * costOf(sel.selectionSet, type, context, measure);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? context.getSchema().getType(sel.typeCondition.name.value) : parent;
      if (type) cost += costOf(sel.selectionSet, type, context, measure, spread);
    } else {
      if (spread.has(sel.name.value)) continue;
      spread.add(sel.name.value);
      cost += fragmentMeasure(sel.name.value, context, measure.memo, (fragment) => {
        const type = context.getSchema().getType(fragment.typeCondition.name.value);
        return type ? costOf(fragment.selectionSet, type, context, measure) : 0;
      });
    }
  }
  return cost;
}

interface CostMeasure {
  variables: Record<string, unknown>;
  limits: Pick<Limits, "maxListSize" | "defaultListSize">;
  /** each fragment's cost, by name */
  memo: Map<string, number>;
}

function listSize(
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Record<string, unknown>,
  limits: Pick<Limits, "maxListSize" | "defaultListSize">,
): number {
  const argDef = def.args.find((a) => LIST_SIZE_ARGS.has(a.name));
  if (!argDef) return limits.defaultListSize;
  const arg = node.arguments?.find((a) => a.name.value === argDef.name);
  const value = !arg
    ? argDef.defaultValue
    : arg.value.kind === Kind.VARIABLE
      ? variables[arg.value.name.value]
      : valueFromASTUntyped(arg.value);
  // An invalid size is listSizeCap's to report; count it as the largest allowed.
  return Number.isInteger(value) && (value as number) >= 1
    ? Math.min(value as number, limits.maxListSize)
    : limits.maxListSize;
}

// Limits checked before execution, as validation rules: depth, cost, aliases, and a cap on list-size arguments.
// Introspection fields (__schema, __type, __typename) are exempt from depth and cost.
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
  /** largest value of a list-size argument (first, limit) */
  maxListSize: number;
  /** assumed size of a list field without a size argument, for cost */
  defaultListSize: number;
}

export const DEFAULT_LIMITS: Limits = { maxDepth: 10, maxCost: 5000, maxAliases: 30, maxListSize: 100, defaultListSize: 10 };

/** Arguments that say how many items a list field returns. */
const LIST_SIZE_ARGS = new Set(["first", "limit"]);

type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** What an operation of a document is and costs. */
export interface OperationCost {
  type: OperationTypeNode;
  cost: number;
}

export function depthLimit(max: number): ValidationRule {
  return (context) => ({
    OperationDefinition(op) {
      const depth = depthOf(op.selectionSet, context, new Set());
      if (depth > max) {
        context.reportError(
          new GraphQLError(`The operation nests ${depth} levels deep; at most ${max} are allowed.`, { nodes: [op], extensions: { code: "DEPTH_LIMIT_EXCEEDED", limit: max, depth } }),
        );
      }
    },
  });
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
              new GraphQLError(`The document uses ${aliases} aliases; at most ${max} are allowed.`, { nodes: [document], extensions: { code: "ALIAS_LIMIT_EXCEEDED", limit: max, aliases } }),
            );
          }
        },
      },
    };
  };
}

/**
 * Every object field costs 1, leaf fields 0; a list multiplies what is under it by its size. `costs` receives each
 * operation's cost, by name ("" for an anonymous one), for the rate limits to charge.
 */
export function costLimit(limits: Pick<Limits, "maxCost" | "maxListSize" | "defaultListSize">, variables: Variables, costs?: Map<string, OperationCost>): ValidationRule {
  return (context) => ({
    OperationDefinition(op) {
      const root = context.getSchema().getRootType(op.operation);
      if (!root) return;
      const cost = costOf(op.selectionSet, root, context, withDefaults(op, variables), limits, new Set());
      costs?.set(op.name?.value ?? "", { type: op.operation, cost });
      if (cost > limits.maxCost) {
        context.reportError(
          new GraphQLError(`The operation costs ${cost}; at most ${limits.maxCost} is allowed. Ask for fewer items (first/limit) or fewer nested lists.`, {
            nodes: [op],
            extensions: { code: "COST_LIMIT_EXCEEDED", limit: limits.maxCost, cost },
          }),
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
            new GraphQLError(`${field}(${arg.name.value}:) must be an integer from 1 to ${max}, got ${JSON.stringify(value)}.`, {
              nodes: [arg],
              extensions: { code: "BAD_USER_INPUT", argument: arg.name.value, limit: max },
            }),
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

function depthOf(set: SelectionSetNode, context: ValidationContext, visiting: Set<string>): number {
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith("__")) continue;
      max = Math.max(max, 1 + (sel.selectionSet ? depthOf(sel.selectionSet, context, visiting) : 0));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, context, visiting));
    } else {
      const fragment = context.getFragment(sel.name.value);
      // A cycle is reported by NoFragmentCyclesRule; here it only must not recurse forever.
      if (!fragment || visiting.has(sel.name.value)) continue;
      visiting.add(sel.name.value);
      max = Math.max(max, depthOf(fragment.selectionSet, context, visiting));
      visiting.delete(sel.name.value);
    }
  }
  return max;
}

function costOf(
  set: SelectionSetNode,
  parent: GraphQLNamedType,
  context: ValidationContext,
  variables: Record<string, unknown>,
  limits: Pick<Limits, "maxListSize" | "defaultListSize">,
  visiting: Set<string>,
): number {
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith("__")) continue;
      const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
      const type = def && getNamedType(def.type);
      if (!def || !type || !isCompositeType(type) || !sel.selectionSet) continue;
      const size = isListType(getNullableType(def.type)) ? listSize(def, sel, variables, limits) : 1;
      cost += 1 + size * costOf(sel.selectionSet, type, context, variables, limits, visiting);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? context.getSchema().getType(sel.typeCondition.name.value) : parent;
      if (type) cost += costOf(sel.selectionSet, type, context, variables, limits, visiting);
    } else {
      const fragment = context.getFragment(sel.name.value);
      const type = fragment && context.getSchema().getType(fragment.typeCondition.name.value);
      if (!fragment || !type || visiting.has(sel.name.value)) continue;
      visiting.add(sel.name.value);
      cost += costOf(fragment.selectionSet, type, context, variables, limits, visiting);
      visiting.delete(sel.name.value);
    }
  }
  return cost;
}

function listSize(def: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>, limits: Pick<Limits, "maxListSize" | "defaultListSize">): number {
  const argDef = def.args.find((a) => LIST_SIZE_ARGS.has(a.name));
  if (!argDef) return limits.defaultListSize;
  const arg = node.arguments?.find((a) => a.name.value === argDef.name);
  const value = !arg ? argDef.defaultValue : arg.value.kind === Kind.VARIABLE ? variables[arg.value.name.value] : valueFromASTUntyped(arg.value);
  // An invalid size is listSizeCap's to report; count it as the largest allowed.
  return Number.isInteger(value) && (value as number) >= 1 ? Math.min(value as number, limits.maxListSize) : limits.maxListSize;
}

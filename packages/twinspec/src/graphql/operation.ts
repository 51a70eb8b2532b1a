// From query text to a document ready to execute, for every transport (HTTP, graphql-ws, SSE). Parsing (within a
// number of tokens) and the static validation (the specified rules, the introspection switch, depth, aliases,
// directives, and cost when no list size comes from a variable) are cached by query text, all of it within a time
// budget; cost and list-size caps that depend on variables run per request. Without introspection, no error names
// what the schema has ("Did you mean …?").
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import {
  aliasLimit,
  costLimit,
  DEFAULT_LIMITS,
  depthLimit,
  directiveLimit,
  listSizeCap,
  sizesFromVariables,
  timeBudget,
  TimeBudgetExceeded,
  type Limits,
  type OperationCost,
} from "./limits.js";
import { Lru } from "./lru.js";
import { withoutSuggestions } from "./errors.js";
import { MAX_JSON_DEPTH } from "../runtime/json.js";
import { hasNul, NUL, NUL_REFUSED } from "../runtime/text.js";

export interface OperationOptions extends Partial<Limits> {
  introspection?: boolean;
  /** longest query text in UTF-8 bytes (default 65536): refused before parsing */
  maxDocumentBytes?: number;
  /** largest variables object, as JSON in UTF-8 bytes (default 65536) */
  maxVariablesBytes?: number;
  /** documents kept parsed and validated (default 1000) */
  cacheSize?: number;
  /** most tokens a document may have (default 1000): parsing stops there */
  maxTokens?: number;
  /** longest time parsing and validating one document may take, in ms (default 1000) */
  validationTimeoutMs?: number;
}

export type Prepared =
  | {
      document: DocumentNode;
      errors?: undefined /** each operation's type and cost, by name ("" = anonymous) */;
      costs: ReadonlyMap<string, OperationCost>;
    }
  | {
      errors: readonly GraphQLError[];
      document?: undefined /** what validation found it would cost, to charge */;
      costs?: ReadonlyMap<string, OperationCost>;
    };

interface Entry {
  document?: DocumentNode;
  errors?: readonly GraphQLError[];
  /** a list size comes from a variable: cost and caps are checked per request */
  perRequest: boolean;
  /** what prepare answers whatever the variables (unless perRequest): one object, not one per request */
  prepared?: Prepared;
}

/** A string literal holding U+0000 (a `\u0000` escape) is bad input, as in JSON (runtime/text.ts). */
const nulFree: ValidationRule = (context) => ({
  StringValue(node) {
    if (hasNul(node.value))
      context.reportError(
        new GraphQLError(`A string holds ${NUL}: ${NUL_REFUSED}.`, {
          nodes: [node],
          extensions: { code: "BAD_USER_INPUT" },
        }),
      );
  },
});

/** Longer query texts are prepared every time rather than cached (bounds the cache's memory). */
const MAX_CACHED_QUERY = 20_000;

export function createPreparer(schema: GraphQLSchema, options: OperationOptions = {}) {
  const limits: Limits = { ...DEFAULT_LIMITS, ...definedOnly(options) };
  const staticRules: ValidationRule[] = [
    ...specifiedRules,
    ...(options.introspection === false ? [NoSchemaIntrospectionCustomRule] : []),
    depthLimit(limits.maxDepth),
    aliasLimit(limits.maxAliases),
    directiveLimit(limits.maxDirectives),
    nulFree,
  ];
  const maxTokens = options.maxTokens ?? 1000;
  const timeoutMs = options.validationTimeoutMs ?? 1000;
  // Without introspection the schema is not the client's to discover, through suggestions either.
  const shown =
    options.introspection === false
      ? (errors: readonly GraphQLError[]) => errors.map(withoutSuggestions)
      : (errors: readonly GraphQLError[]) => errors;
  const variableRules = (variables: Record<string, unknown> | null | undefined, costs: Map<string, OperationCost>) => [
    costLimit(limits, variables, costs),
    listSizeCap(limits.maxListSize, variables),
  ];
  const cache = new Lru<string, Entry>(options.cacheSize ?? 1000);

  /** The document parsed and validated, or why not; undefined when it took longer than the budget. */
  function compile(query: string): Entry | undefined {
    const deadline = performance.now() + timeoutMs;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens });
    } catch (error) {
      const errors = [tokenLimited(error as GraphQLError, maxTokens)];
      return { errors, perRequest: false, prepared: { errors } };
    }
    const perRequest = sizesFromVariables(document);
    const costs = new Map<string, OperationCost>();
    let errors: readonly GraphQLError[];
    try {
      errors = validate(schema, document, [
        timeBudget(deadline),
        ...staticRules,
        ...(perRequest ? [] : variableRules(undefined, costs)),
      ]);
    } catch (error) {
      if (error instanceof TimeBudgetExceeded) return undefined;
      throw error;
    }
    if (errors.length > 0) {
      errors = shown(errors);
      return { errors, perRequest, prepared: { errors, costs } };
    }
    return { document, perRequest, prepared: perRequest ? undefined : { document, costs } };
  }

  const maxDocumentBytes = options.maxDocumentBytes ?? 64 * 1024;
  const maxVariablesBytes = options.maxVariablesBytes ?? 64 * 1024;

  return function prepare(query: string, variables?: Record<string, unknown> | null): Prepared {
    const tooLarge = sizeError(query, variables, maxDocumentBytes, maxVariablesBytes);
    if (tooLarge) return { errors: [tooLarge] };
    let entry = cache.get(query);
    if (!entry) {
      entry = compile(query);
      // Out of time says nothing of the document (the machine may be busy): it is not kept.
      if (!entry) return { errors: [timedOut(timeoutMs)] };
      if (query.length <= MAX_CACHED_QUERY) cache.set(query, entry);
    }
    if (entry.prepared) return entry.prepared;
    const costs = new Map<string, OperationCost>();
    const errors = validate(schema, entry.document!, variableRules(variables, costs));
    return errors.length > 0 ? { errors: shown(errors), costs } : { document: entry.document!, costs };
  };
}

/** parse's refusal past `maxTokens`, coded with its limit. */
function tokenLimited(error: GraphQLError, maxTokens: number): GraphQLError {
  if (!error.message.includes("tokens")) return error;
  return new GraphQLError(`The document has more than ${maxTokens} tokens; send a smaller one.`, {
    extensions: { code: "TOKEN_LIMIT_EXCEEDED", limit: maxTokens },
  });
}

const timedOut = (ms: number) =>
  new GraphQLError(`The document took longer than ${ms} ms to validate; send a simpler one.`, {
    extensions: { code: "VALIDATION_TIMEOUT", limit: ms },
  });

/** How deep `value` nests (objects and arrays), counted up to `max` + 1 at most: no recursion, whatever the value. */
function depthPast(value: unknown, max: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > max) return true;
    const next: unknown[] = [];
    for (const v of level)
      if (typeof v === "object" && v !== null)
        for (const child of Object.values(v)) if (typeof child === "object" && child !== null) next.push(child);
    level = next;
  }
  return false;
}

/** Sizes are checked before any work: a string's length bounds its UTF-8 size from below, so most need no count. */
function sizeError(
  query: string,
  variables: Record<string, unknown> | null | undefined,
  maxDocument: number,
  maxVariables: number,
): GraphQLError | undefined {
  const documentBytes = query.length * 3 > maxDocument ? Buffer.byteLength(query) : 0;
  if (documentBytes > maxDocument) {
    return new GraphQLError(`The document is ${documentBytes} bytes; at most ${maxDocument} are accepted.`, {
      extensions: { code: "DOCUMENT_SIZE_LIMIT_EXCEEDED", limit: maxDocument, size: documentBytes },
    });
  }
  if (!variables) return undefined;
  // The variables object is level 1.
  if (depthPast(variables, MAX_JSON_DEPTH - 1)) {
    return new GraphQLError(
      `The variables nest more than ${MAX_JSON_DEPTH} levels deep; send at most ${MAX_JSON_DEPTH} levels of lists and objects.`,
      {
        extensions: { code: "BAD_USER_INPUT", limit: MAX_JSON_DEPTH },
      },
    );
  }
  const json = JSON.stringify(variables);
  const variablesBytes = json.length * 3 > maxVariables ? Buffer.byteLength(json) : 0;
  if (variablesBytes > maxVariables) {
    return new GraphQLError(
      `The variables are ${variablesBytes} bytes as JSON; at most ${maxVariables} are accepted.`,
      { extensions: { code: "VARIABLES_SIZE_LIMIT_EXCEEDED", limit: maxVariables, size: variablesBytes } },
    );
  }
  return undefined;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

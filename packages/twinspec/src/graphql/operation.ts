// From query text to a document ready to execute, for every transport (HTTP, graphql-ws, SSE). Parsing and the
// static validation (the specified rules, the introspection switch, depth, aliases, and cost when no list size
// comes from a variable) are cached by query text; cost and list-size caps that depend on variables run per request.
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
import { aliasLimit, costLimit, DEFAULT_LIMITS, depthLimit, listSizeCap, sizesFromVariables, type Limits, type OperationCost } from "./limits.js";
import { Lru } from "./lru.js";

export interface OperationOptions extends Partial<Limits> {
  introspection?: boolean;
  /** longest query text in UTF-8 bytes (default 65536): refused before parsing */
  maxDocumentBytes?: number;
  /** largest variables object, as JSON in UTF-8 bytes (default 65536) */
  maxVariablesBytes?: number;
  /** documents kept parsed and validated (default 1000) */
  cacheSize?: number;
}

export type Prepared =
  | { document: DocumentNode; errors?: undefined; /** each operation's type and cost, by name ("" = anonymous) */ costs: ReadonlyMap<string, OperationCost> }
  | { errors: readonly GraphQLError[]; document?: undefined; costs?: undefined };

interface Entry {
  document?: DocumentNode;
  errors?: readonly GraphQLError[];
  /** a list size comes from a variable: cost and caps are checked per request */
  perRequest: boolean;
  /** what prepare answers whatever the variables (unless perRequest): one object, not one per request */
  prepared?: Prepared;
}

/** Longer query texts are prepared every time rather than cached (bounds the cache's memory). */
const MAX_CACHED_QUERY = 20_000;
/** Parsing stops beyond this many tokens (a bound on work for hostile documents). */
const MAX_TOKENS = 10_000;

export function createPreparer(schema: GraphQLSchema, options: OperationOptions = {}) {
  const limits: Limits = { ...DEFAULT_LIMITS, ...definedOnly(options) };
  const staticRules: ValidationRule[] = [
    ...specifiedRules,
    ...(options.introspection === false ? [NoSchemaIntrospectionCustomRule] : []),
    depthLimit(limits.maxDepth),
    aliasLimit(limits.maxAliases),
  ];
  const variableRules = (variables: Record<string, unknown> | null | undefined, costs: Map<string, OperationCost>) => [costLimit(limits, variables, costs), listSizeCap(limits.maxListSize, variables)];
  const cache = new Lru<string, Entry>(options.cacheSize ?? 1000);

  function compile(query: string): Entry {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: MAX_TOKENS });
    } catch (error) {
      const errors = [error as GraphQLError];
      return { errors, perRequest: false, prepared: { errors } };
    }
    const perRequest = sizesFromVariables(document);
    const costs = new Map<string, OperationCost>();
    const errors = validate(schema, document, perRequest ? staticRules : [...staticRules, ...variableRules(undefined, costs)]);
    if (errors.length > 0) return { errors, perRequest, prepared: { errors } };
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
      if (query.length <= MAX_CACHED_QUERY) cache.set(query, entry);
    }
    if (entry.prepared) return entry.prepared;
    const costs = new Map<string, OperationCost>();
    const errors = validate(schema, entry.document!, variableRules(variables, costs));
    return errors.length > 0 ? { errors } : { document: entry.document!, costs };
  };
}

/** Sizes are checked before any work: a string's length bounds its UTF-8 size from below, so most need no count. */
function sizeError(query: string, variables: Record<string, unknown> | null | undefined, maxDocument: number, maxVariables: number): GraphQLError | undefined {
  const documentBytes = query.length * 3 > maxDocument ? Buffer.byteLength(query) : 0;
  if (documentBytes > maxDocument) {
    return new GraphQLError(`The document is ${documentBytes} bytes; at most ${maxDocument} are accepted.`, { extensions: { code: "DOCUMENT_SIZE_LIMIT_EXCEEDED", limit: maxDocument, size: documentBytes } });
  }
  if (!variables) return undefined;
  const json = JSON.stringify(variables);
  const variablesBytes = json.length * 3 > maxVariables ? Buffer.byteLength(json) : 0;
  if (variablesBytes > maxVariables) {
    return new GraphQLError(`The variables are ${variablesBytes} bytes as JSON; at most ${maxVariables} are accepted.`, { extensions: { code: "VARIABLES_SIZE_LIMIT_EXCEEDED", limit: maxVariables, size: variablesBytes } });
  }
  return undefined;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

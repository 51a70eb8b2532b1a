// Compiled execution (graphql-jit): each document is compiled once per operation name and reused, since the
// preparer hands out the same DocumentNode for the same query text. Variables are coerced by graphql-js first, so
// coercion errors read exactly as graphql-js words them; results equal graphql-js's (test/graphql/jit.test.ts).
// A document graphql-jit cannot compile runs on graphql-js. With tracing, each operation runs in its own span.
// `serialize` writes a result as JSON with a serializer compiled for the operation's selections (graphql-jit's
// customJSONSerializer, which builds it with fast-json-stringify) where the selected types allow one.
import {
  execute as executeJs,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isAbstractType,
  isListType,
  isScalarType,
  specifiedScalarTypes,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Tracing } from "../telemetry/types.js";

interface Compiled {
  query: CompiledQuery;
  operation: OperationDefinitionNode;
  /** writes a result that holds `data` alone; undefined: JSON.stringify does */
  stringify?: (result: ExecutionResult) => string;
}

const BUILT_IN_SCALARS = new Set(specifiedScalarTypes.map((type) => type.name));

/**
 * Whether the document's answers are written by a compiled serializer: graphql-jit can describe every field it
 * selects (it knows the built-in scalars only, and refuses to compile a custom one such as DateTime; it merges the
 * fields of an interface's or a union's possible types into one object, where one response name could stand for
 * fields of two types), and it selects no list: V8's JSON.stringify writes lists of objects faster than the compiled
 * serializer does.
 */
function serializable(schema: GraphQLSchema, document: DocumentNode): boolean {
  const types = new TypeInfo(schema);
  let fits = true;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field() {
        const type = types.getType();
        const named = getNamedType(type);
        if (
          !named ||
          isListType(getNullableType(type)) ||
          isAbstractType(named) ||
          (isScalarType(named) && !BUILT_IN_SCALARS.has(named.name))
        )
          fits = false;
      },
    }),
  );
  return fits;
}

/** Whether the result holds `data` and nothing else (no errors, no extensions): what the compiled serializer writes. */
function dataOnly(result: ExecutionResult): boolean {
  for (const key in result) if (key !== "data") return false;
  return true;
}

export function createExecute(schema: GraphQLSchema, tracing?: Pick<Tracing, "operation">) {
  const cache = new WeakMap<DocumentNode, Map<string, Compiled | null>>();

  function compile(document: DocumentNode, operationName: string | undefined): Compiled | null {
    const operation = getOperationAST(document, operationName);
    if (!operation) return null;
    // For a single object, V8's JSON.stringify of graphql-jit's result costs more than the compiled serializer.
    const withSerializer = serializable(schema, document)
      ? compileQuery(schema, document, operationName, { customJSONSerializer: true })
      : undefined;
    if (withSerializer && isCompiledQuery(withSerializer))
      return { query: withSerializer, operation, stringify: withSerializer.stringify };
    const query = compileQuery(schema, document, operationName);
    return isCompiledQuery(query) ? { query, operation } : null;
  }

  /** The document's compiled operation (null: graphql-jit could not compile it), compiled on first use. */
  function compiledFor(document: DocumentNode, operationName: string | null | undefined): Compiled | null {
    let byName = cache.get(document);
    if (!byName) cache.set(document, (byName = new Map()));
    const name = operationName ?? "";
    let compiled = byName.get(name);
    if (compiled === undefined) byName.set(name, (compiled = compile(document, operationName ?? undefined)));
    return compiled;
  }

  const execute = traced(tracing, function execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    if (args.schema !== schema) return executeJs(args);
    const compiled = compiledFor(args.document, args.operationName);
    if (!compiled) return executeJs(args);
    const variables = args.variableValues ?? {};
    if (compiled.operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, compiled.operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    return compiled.query.query(args.rootValue, args.contextValue, variables);
  });

  /** `result` of executing `document` (its operation `operationName`) as JSON: what JSON.stringify(result) gives. */
  const serialize = (
    document: DocumentNode,
    operationName: string | null | undefined,
    result: ExecutionResult,
  ): string => {
    const stringify = dataOnly(result) ? cache.get(document)?.get(operationName ?? "")?.stringify : undefined;
    return stringify ? stringify(result) : JSON.stringify(result);
  };
  return Object.assign(execute, { serialize });
}

/** `run` (execute or subscribe) inside a span named for the operation, when tracing; `run` itself otherwise. */
export function traced<R>(
  tracing: Pick<Tracing, "operation"> | undefined,
  run: (args: ExecutionArgs) => R,
): (args: ExecutionArgs) => R {
  if (!tracing) return run;
  return (args) => {
    const operation = getOperationAST(args.document, args.operationName);
    return tracing.operation(
      operation?.operation ?? "query",
      operation?.name?.value ?? args.operationName ?? undefined,
      () => run(args),
    );
  };
}

// Compiled execution (graphql-jit): each document is compiled once per operation name and reused, since the
// preparer hands out the same DocumentNode for the same query text. Variables are coerced by graphql-js first, so
// coercion errors read exactly as graphql-js words them; results equal graphql-js's (test/graphql/jit.test.ts).
// A document graphql-jit cannot compile runs on graphql-js. With tracing, each operation runs in its own span.
import {
  execute as executeJs,
  getOperationAST,
  getVariableValues,
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
}

export function createExecute(schema: GraphQLSchema, tracing?: Pick<Tracing, "operation">) {
  const cache = new WeakMap<DocumentNode, Map<string, Compiled | null>>();

  function compile(document: DocumentNode, operationName: string | undefined): Compiled | null {
    const operation = getOperationAST(document, operationName);
    const query = operation && compileQuery(schema, document, operationName);
    return operation && query && isCompiledQuery(query) ? { query, operation } : null;
  }

  return traced(tracing, function execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    if (args.schema !== schema) return executeJs(args);
    let byName = cache.get(args.document);
    if (!byName) cache.set(args.document, (byName = new Map()));
    const name = args.operationName ?? "";
    let compiled = byName.get(name);
    if (compiled === undefined) byName.set(name, (compiled = compile(args.document, args.operationName ?? undefined)));
    if (!compiled) return executeJs(args);
    const variables = args.variableValues ?? {};
    if (compiled.operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, compiled.operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    return compiled.query.query(args.rootValue, args.contextValue, variables);
  });
}

/** `run` (execute or subscribe) inside a span named for the operation, when tracing; `run` itself otherwise. */
export function traced<R>(tracing: Pick<Tracing, "operation"> | undefined, run: (args: ExecutionArgs) => R): (args: ExecutionArgs) => R {
  if (!tracing) return run;
  return (args) => {
    const operation = getOperationAST(args.document, args.operationName);
    return tracing.operation(operation?.operation ?? "query", operation?.name?.value ?? args.operationName ?? undefined, () => run(args));
  };
}

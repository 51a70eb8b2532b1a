// Every GraphQL error leaves with extensions.code. Domain outcomes keep their message; anything
// unexpected is masked to a message with the request id and logged with its stack.
import { GraphQLError, type ExecutionResult } from "graphql";
import type { Logger } from "pino";
import { DomainError } from "../domain/errors.js";

const CODES: Record<DomainError["kind"], string> = {
  invalid: "BAD_USER_INPUT",
  not_found: "NOT_FOUND",
  gone: "GONE",
  moved: "MOVED_PERMANENTLY",
  conflict: "CONFLICT",
  precondition: "CONFLICT",
};

function domainExtensions(error: DomainError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: CODES[error.kind] };
  if ("errors" in error) extensions.invalid = error.errors;
  if ("to" in error) extensions.movedTo = error.to;
  if ("allowed" in error && error.allowed) extensions.allowed = error.allowed;
  return extensions;
}

/** Maps the errors of an executed operation (resolver errors carry originalError). */
export function mapExecutionErrors(result: ExecutionResult, requestId: string, log: Logger | undefined): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => {
    const original = error.originalError;
    if (!original || original instanceof GraphQLError) return error;
    if (original instanceof DomainError) {
      return new GraphQLError(original.message, { nodes: error.nodes, path: error.path, extensions: domainExtensions(original) });
    }
    log?.error({ err: original, path: error.path }, "resolver failed");
    return new GraphQLError(`Unexpected error; quote request id ${requestId} when reporting it.`, {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
    });
  });
  return { ...result, errors };
}

/** Errors found before execution (syntax, validation, variables) get a code too. */
export function formatError(error: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(error instanceof GraphQLError)) {
    return new GraphQLError("Unexpected error", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  }
  if (error.extensions?.code) return error;
  const code = error.message.startsWith("Syntax Error")
    ? "GRAPHQL_PARSE_FAILED"
    : error.message.startsWith("Variable ")
      ? "BAD_USER_INPUT"
      : error.originalError && !(error.originalError instanceof GraphQLError)
        ? "INTERNAL_SERVER_ERROR"
        : "GRAPHQL_VALIDATION_FAILED";
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { ...error.extensions, code } });
}

export const notImplemented = (field: string) =>
  new GraphQLError(`${field} is declared in schema.graphql but not implemented yet.`, { extensions: { code: "NOT_IMPLEMENTED" } });

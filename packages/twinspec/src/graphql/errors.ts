// Every GraphQL error leaves with extensions.code. Resolver errors become coded GraphQLErrors where they are thrown
// (schema.ts wraps every resolver), whatever the transport, through the one error table (src/error-table.ts):
// domain outcomes keep their message; invalid input is placed in the argument it came from; anything unexpected is
// masked to a message with the request id and logged with its stack.
import { GraphQLError, getNamedType, isInputObjectType, type GraphQLArgument } from "graphql";
import type { Logger } from "pino";
import { DomainError, InvalidInputError, UnprocessableError, type InputError } from "../domain/errors.js";
import { codeOfStatus, ERRORS, type Kind } from "../error-table.js";
import { unavailable } from "../store/unavailable.js";

/** One bad argument value: `pointer` is relative to that argument. */
export interface ArgumentProblem extends InputError {
  argument: string;
}

/** Invalid arguments, each placed in its argument (BAD_USER_INPUT with extensions.argument and .invalid). */
export class ArgumentError extends Error {
  constructor(readonly invalid: ArgumentProblem[]) {
    super(invalid.map((e) => `${e.argument}${e.pointer}: ${e.message}`).join("; "));
  }
}

const segments = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));

/**
 * The domain's input errors (pointers relative to its input) placed in the field's arguments: an argument the
 * pointer's first segment names; else the field's one input object argument.
 */
function inArguments(error: InvalidInputError | UnprocessableError, args: readonly GraphQLArgument[]): ArgumentError {
  const input = args.filter((a) => isInputObjectType(getNamedType(a.type)));
  return new ArgumentError(
    error.errors.map((e) => {
      const first = e.pointer.match(/^\/([^/]*)/)?.[1];
      const named = args.find((a) => a.name === first);
      if (named) return { argument: named.name, pointer: e.pointer.slice(first!.length + 1), message: e.message };
      return { argument: input.length === 1 ? input[0].name : "", pointer: e.pointer, message: e.message };
    }),
  );
}

export interface ErrorContext {
  requestId: string;
  log?: Logger;
}

/** A resolver's error as the client sees it; `args` are the field's, to place invalid input. */
export function toGraphqlError(
  error: unknown,
  context: ErrorContext,
  args: readonly GraphQLArgument[] = [],
): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof InvalidInputError || error instanceof UnprocessableError)
    return toGraphqlError(inArguments(error, args), context);
  if (error instanceof ArgumentError) {
    const invalid = error.invalid.map((e) => ({
      pointer: e.pointer,
      message: e.message,
      path: [e.argument, ...segments(e.pointer)].filter((p) => p !== ""),
    }));
    return new GraphQLError(error.message, {
      extensions: { code: ERRORS.invalid.code, argument: error.invalid[0]?.argument, invalid },
    });
  }
  const kind = (error as { kind?: unknown })?.kind;
  const status = (error as { status?: unknown })?.status;
  const code =
    typeof kind === "string" && kind in ERRORS
      ? ERRORS[kind as Kind].code
      : typeof status === "number"
        ? codeOfStatus(status)
        : undefined;
  if (code && error instanceof Error) {
    const extensions: Record<string, unknown> = { code };
    if (error instanceof DomainError) {
      if ("to" in error) extensions.movedTo = error.to;
      if ("allowed" in error && error.allowed) extensions.allowed = error.allowed;
    }
    return new GraphQLError(error.message, { extensions });
  }
  const down = unavailable(error);
  if (down) {
    context.log?.warn({ reason: down.reason }, "database unavailable");
    return new GraphQLError(down.message, {
      extensions: { code: ERRORS.unavailable.code, retryAfterSeconds: down.retryAfterSeconds },
    });
  }
  context.log?.error({ err: error }, "resolver failed");
  return masked(context.requestId);
}

const masked = (requestId?: string) =>
  requestId
    ? new GraphQLError(`Unexpected error; quote request id ${requestId} when reporting it.`, {
        extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
      })
    : new GraphQLError("Unexpected error; quote the X-Request-Id response header when reporting it.", {
        extensions: { code: "INTERNAL_SERVER_ERROR" },
      });

/** The last word on every error sent: adds a code to errors found before execution; never lets a raw message out. */
export function formatError(error: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(error instanceof GraphQLError)) return masked();
  if (error.extensions?.code) return error;
  if (error.originalError && !(error.originalError instanceof GraphQLError)) return masked();
  const code = error.path
    ? "INTERNAL_SERVER_ERROR" // e.g. null for a non-null field: the server's fault
    : error.message.startsWith("Syntax Error")
      ? "GRAPHQL_PARSE_FAILED"
      : error.message.startsWith("Variable ")
        ? "BAD_USER_INPUT"
        : "GRAPHQL_VALIDATION_FAILED";
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code },
  });
}

/** Suggestions name what the schema has ("Did you mean …?"): `error` without them, for a schema not to be discovered. */
export function withoutSuggestions(error: GraphQLError): GraphQLError {
  const message = error.message.replace(/ ?Did you mean [^?]*\?/g, "");
  return message === error.message
    ? error
    : new GraphQLError(message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions: error.extensions,
      });
}

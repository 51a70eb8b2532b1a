// Every GraphQL error leaves with extensions.code. Resolver errors are turned into coded GraphQLErrors where they
// are thrown (wrapResolvers in schema.ts), whatever the transport: domain outcomes keep their message; anything
// unexpected is masked to a message with the request id and logged with its stack.
import { GraphQLError } from "graphql";
import type { Logger } from "pino";
import { DomainError, InvalidInputError, type InputError } from "../domain/errors.js";
import { unavailable } from "../store/unavailable.js";

/** Error kinds → codes. unauthenticated/forbidden are the auth layer's kinds, mapped here ahead of it. */
const CODES: Record<string, string> = {
  invalid: "BAD_USER_INPUT",
  not_found: "NOT_FOUND",
  gone: "GONE",
  moved: "MOVED_PERMANENTLY",
  conflict: "CONFLICT",
  precondition: "CONFLICT",
  unauthenticated: "UNAUTHENTICATED",
  forbidden: "FORBIDDEN",
};
const STATUS_CODES: Record<number, string> = { 401: "UNAUTHENTICATED", 403: "FORBIDDEN" };

/** The domain's input error, placed in the GraphQL argument it came from. */
export class ArgumentError extends Error {
  constructor(
    readonly argument: string,
    readonly invalid: InputError[],
  ) {
    super(invalid.map((e) => `${argument}${e.pointer}: ${e.message}`).join("; "));
  }
}

/**
 * Runs a domain call whose input comes from GraphQL arguments. The domain's pointers are relative to its input:
 * with a string, all belong to that argument ("input"); with a map, the pointer's first segment names the
 * argument ({ "/after": "after", "/limit": "first" }) and is dropped.
 */
export async function inArguments<T>(argument: string | Record<string, string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    if (typeof argument === "string") throw new ArgumentError(argument, error.errors);
    const first = error.errors[0]?.pointer.match(/^\/[^/]*/)?.[0] ?? "";
    const name = argument[first];
    if (!name) throw error;
    throw new ArgumentError(name, error.errors.map((e) => ({ ...e, pointer: e.pointer.slice(first.length) })));
  }
}

const segments = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));

export interface ErrorContext {
  requestId: string;
  log?: Logger;
}

/** A resolver's error as the client sees it. */
export function toGraphqlError(error: unknown, context: ErrorContext): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof ArgumentError) {
    const invalid = error.invalid.map((e) => ({ ...e, path: [error.argument, ...segments(e.pointer)] }));
    return new GraphQLError(error.message, { extensions: { code: "BAD_USER_INPUT", argument: error.argument, invalid } });
  }
  const kind = (error as { kind?: unknown })?.kind;
  const status = (error as { status?: unknown })?.status;
  const code = typeof kind === "string" ? CODES[kind] : typeof status === "number" ? STATUS_CODES[status] : undefined;
  if (code && error instanceof Error) {
    const extensions: Record<string, unknown> = { code };
    if (error instanceof DomainError) {
      if ("errors" in error) extensions.invalid = error.errors;
      if ("to" in error) extensions.movedTo = error.to;
      if ("allowed" in error && error.allowed) extensions.allowed = error.allowed;
    }
    return new GraphQLError(error.message, { extensions });
  }
  const down = unavailable(error);
  if (down) {
    context.log?.warn({ reason: down.reason }, "database unavailable");
    return new GraphQLError(down.message, { extensions: { code: "SERVICE_UNAVAILABLE", retryAfterSeconds: down.retryAfterSeconds } });
  }
  context.log?.error({ err: error }, "resolver failed");
  return masked(context.requestId);
}

const masked = (requestId?: string) =>
  requestId
    ? new GraphQLError(`Unexpected error; quote request id ${requestId} when reporting it.`, { extensions: { code: "INTERNAL_SERVER_ERROR", requestId } })
    : new GraphQLError("Unexpected error; quote the X-Request-Id response header when reporting it.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });

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
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { ...error.extensions, code } });
}

export const notImplemented = (field: string) =>
  new GraphQLError(`${field} is declared in schema.graphql but not implemented yet.`, { extensions: { code: "NOT_IMPLEMENTED" } });

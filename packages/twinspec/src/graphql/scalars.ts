// The DateTime scalar every Twinspec schema may use: RFC 3339 strings out, validated strings in.
import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function parse(value: unknown): string {
  if (typeof value !== "string" || !RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError(`DateTime must be an RFC 3339 date-time string, got ${JSON.stringify(value)}`, {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  return new Date(value).toISOString();
}

/**
 * The DateTime scalar: serializes a Date or an RFC 3339 string as ISO-8601 in UTC; accepts an RFC 3339 date-time
 * string (with a zone: "Z" or ±hh:mm) as input and hands resolvers its ISO-8601 UTC form; anything else is
 * BAD_USER_INPUT. src/graphql/scalars.ts hands it to the schema (`{ DateTime }`), as generate writes that file.
 */
export const DateTime = new GraphQLScalarType({
  name: "DateTime",
  serialize: (value) => (value instanceof Date ? value.toISOString() : parse(value)),
  parseValue: parse,
  parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
});

/** Every custom scalar of schema.graphql (generated/resolvers.ts asks for each one). */

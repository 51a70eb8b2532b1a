// Raw strings from the URL, headers and cookies → the JSON values the spec declares, before validation.
// The style and explode rules are OpenAPI's (§4.8.12.4 Style Values). A value that does not look like its type is left
// as it is, so the validator names it.
import { JsonProblem, parseJson } from "./json.js";
import { refusalOf } from "./problems.js";

export type Scalar = "string" | "integer" | "number" | "boolean" | "none";
type ParamType = Scalar | "array" | "object" | "json";
export type Location = "path" | "query" | "header" | "cookie";

/** One parameter of an operation, as generated/rest.ts declares it: how its raw strings become a JSON value. */
export interface ParamSpec {
  /** its name in the spec (a header's as declared; it is read case-insensitively) */
  name: string;
  /** where it is: "path", "query", "header" or "cookie" */
  in: Location;
  /** its schema's type: a scalar ("string", "integer", "number", "boolean", "none" for untyped), "array", "object", or "json" (a parameter with `content: application/json`) */
  type: ParamType;
  /** an array's item type */
  items?: Scalar;
  /** an object's property types */
  props?: Record<string, Scalar>;
  /** an array's or object's serialization style, as OpenAPI's rules resolve it (the generator writes it with the defaults applied) */
  style?: "form" | "simple" | "deepObject" | "spaceDelimited" | "pipeDelimited";
  /** an array's or object's explode, resolved likewise */
  explode?: boolean;
  /** the schema's default: what the handler gets when the request has none */
  default?: unknown;
}

type Raw = string | string[] | undefined;
export type Query = Record<string, Raw>;

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function coerceScalar(raw: string, type: Scalar): unknown {
  switch (type) {
    case "integer":
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case "number":
      // Decimal notation only: Number() would also take "0x10" or "".
      return NUMBER.test(raw) ? Number(raw) : raw;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : raw;
    default:
      return raw;
  }
}

const SEPARATOR = { spaceDelimited: " ", pipeDelimited: "|" } as Record<string, string>;

/** Splits a delimited value; "" is the empty array. */
const split = (value: string, separator: string, trim: boolean) =>
  value === "" ? [] : value.split(separator).map((v) => (trim ? v.trim() : v));

/** "k,v,k,v" (explode off) or "k=v,k=v" (simple + explode) → an object of coerced properties. */
function pairs(parts: string[], exploded: boolean, props: Record<string, Scalar>): Record<string, unknown> | string[] {
  const out: Record<string, unknown> = {};
  if (exploded) {
    for (const part of parts) {
      const eq = part.indexOf("=");
      if (eq < 0) return parts;
      out[part.slice(0, eq)] = coerceScalar(part.slice(eq + 1), props[part.slice(0, eq)] ?? "none");
    }
    return out;
  }
  if (parts.length % 2 !== 0) return parts; // not key,value pairs: let validation say "must be object"
  for (let i = 0; i < parts.length; i += 2) out[parts[i]] = coerceScalar(parts[i + 1], props[parts[i]] ?? "none");
  return out;
}

/**
 * The value of one parameter. `raw` is its own raw value (the first of repeated headers/cookies is theirs to decide);
 * `query` is the whole parsed query string, which deepObject and exploded form objects read field by field.
 */
export function decodeParam(p: ParamSpec, raw: Raw, query?: Query): unknown {
  if (p.type === "object" && p.in === "query" && (p.style === "deepObject" || (p.style !== "simple" && p.explode))) {
    return objectFromQuery(p, query ?? {});
  }
  if (raw === undefined) return undefined;
  const trim = p.in === "header";
  switch (p.type) {
    case "array": {
      const items = p.items ?? "none";
      const values = Array.isArray(raw) ? raw : [raw];
      const separator = SEPARATOR[p.style ?? ""] ?? ",";
      // form + explode: one value per repetition; otherwise each value is a delimited list.
      const parts =
        p.in === "query" && p.style === "form" && p.explode !== false
          ? values
          : values.flatMap((v) => split(v, separator, trim));
      return parts.map((v) => coerceScalar(v, items));
    }
    case "object":
      if (Array.isArray(raw)) return raw;
      return pairs(split(raw, ",", trim), p.style === "simple" && p.explode === true, p.props ?? {});
    case "json":
      if (Array.isArray(raw)) return raw;
      try {
        return parseJson(raw);
      } catch (error) {
        // Not JSON: validation names what it must be.
        if ((error as JsonProblem).reason === "syntax") return raw;
        throw refusalOf("bad_request", `The ${p.in} parameter "${p.name}" is ${(error as JsonProblem).message}.`);
      }
    default:
      // A repeated scalar stays an array, so validation says "must be <type>".
      return Array.isArray(raw) ? raw : coerceScalar(trim ? raw.trim() : raw, p.type);
  }
}

function objectFromQuery(p: ParamSpec, query: Query): Record<string, unknown> | undefined {
  const props = p.props ?? {};
  const out: Record<string, unknown> = {};
  let found = false;
  const take = (key: string, value: Raw) => {
    if (value === undefined) return;
    found = true;
    const type = props[key] ?? "none";
    out[key] = Array.isArray(value) ? value.map((v) => coerceScalar(v, type)) : coerceScalar(value, type);
  };
  if (p.style === "deepObject") {
    const prefix = `${p.name}[`;
    for (const [key, value] of Object.entries(query)) {
      if (key.startsWith(prefix) && key.endsWith("]")) take(key.slice(prefix.length, -1), value);
    }
  } else {
    for (const key of Object.keys(props)) take(key, query[key]);
  }
  return found ? out : undefined;
}

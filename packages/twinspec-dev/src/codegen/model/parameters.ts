// Parameter objects → how the server turns their raw strings into the JSON value the schema validates.
// A style/type combination we cannot parse exactly is never guessed at run time: that parameter is degraded, with a
// warning, to its raw text (unvalidated, typed as a string), and the rest of the operation keeps its contract.
import type { Warnings } from "../load/diagnostics.js";
import { deref, derefOrWarn, isObject, SpecError, type Json, type JsonObject } from "../load/spec.js";

export type ParamLocation = "path" | "query" | "header" | "cookie";
/** A scalar's JSON type; "none" keeps the string (no type declared). */
export type Scalar = "string" | "integer" | "number" | "boolean" | "none";
export type ParamType = Scalar | "array" | "object" | "json";
type ParamStyle = "form" | "simple" | "deepObject" | "spaceDelimited" | "pipeDelimited";

export interface Parameter {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: Json;
  type: ParamType;
  /** array item type */
  items?: Scalar;
  /** object property types (form-exploded and deepObject objects are read property by property) */
  props?: Record<string, Scalar>;
  style: ParamStyle;
  explode: boolean;
  /** the runtime cannot read it as its schema says: the handler gets the raw string(s), unvalidated */
  raw?: true;
  /** the schema's `default`, of the parameter's own type: what the handler gets when the request has none */
  default?: Json;
}

const STYLES: Record<ParamLocation, ParamStyle[]> = {
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  path: ["simple"],
  header: ["simple"],
  cookie: ["form"],
};

/**
 * The JSON type raw strings are coerced to. Several types (3.1 lists, 3.0 nullable) pick the widest that a string can
 * be read as: number before integer (an integer is a number), then boolean, then string.
 */
export function schemaType(
  doc: JsonObject,
  schema: Json,
  file: string,
  where: string,
  depth = 0,
): Exclude<ParamType, "json"> {
  if (!isObject(schema) || depth > 20) return "none";
  const s = schema.$ref ? deref(doc, schema, file, where).value : schema;
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === "string");
  for (const t of ["array", "object", "number", "integer", "boolean", "string"] as const)
    if (types.includes(t)) return t;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    if (s.enum.every((v) => typeof v === "boolean" || v === null)) return "boolean";
    if (s.enum.every((v) => typeof v === "number" || v === null))
      return s.enum.every((v) => v === null || Number.isInteger(v)) ? "integer" : "number";
    return "string";
  }
  if (isObject(s.properties)) return "object";
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const parts = Array.isArray(s[key]) ? s[key] : [];
    const found = [
      ...new Set(
        parts.map((p, i) => schemaType(doc, p, file, `${where}/${key}/${i}`, depth + 1)).filter((t) => t !== "none"),
      ),
    ];
    // allOf: the first typed member decides; oneOf/anyOf: only when every branch agrees.
    if (found.length > 0 && (key === "allOf" || found.length === 1)) return found[0];
  }
  return "none";
}

const scalarOf = (type: ParamType): Scalar | undefined =>
  type === "array" || type === "object" || type === "json" ? undefined : type;

export function parameterList(
  doc: JsonObject,
  raw: Json | undefined,
  file: string,
  where: string,
  warnings: Warnings,
): Parameter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    warnings.add("parameter", where, "parameters must be an array; ignored");
    return [];
  }
  return raw.flatMap((entry, i) => parameter(doc, entry, file, `${where}/${i}`, warnings) ?? []);
}

/** Thrown where the runtime cannot read a construct as declared: it is degraded (with a warning saying why). */
export class Degraded extends Error {}

function parameter(
  doc: JsonObject,
  entry: Json,
  file: string,
  where: string,
  warnings: Warnings,
): Parameter | undefined {
  const found = derefOrWarn(doc, entry, file, where, warnings, "parameter", "parameter");
  if (!found) return undefined;
  const { value: p, pointer } = found;
  const location = p.in as ParamLocation;
  if (typeof p.name !== "string" || !(String(location) in STYLES)) {
    const swagger =
      p.in === "body" || p.in === "formData" ? ` ("${String(p.in)}" is Swagger 2.0: use requestBody)` : "";
    warnings.add("parameter", pointer, `parameter ignored: it needs a name and in: path|query|header|cookie${swagger}`);
    return undefined;
  }
  const base = { name: p.name, in: location, required: location === "path" ? true : p.required === true };
  const style = (p.style ?? (location === "query" || location === "cookie" ? "form" : "simple")) as ParamStyle;
  const explode = typeof p.explode === "boolean" ? p.explode : style === "form" || style === "deepObject";
  try {
    return read(doc, p, { ...base, schema: p.schema ?? {}, type: "none", style, explode }, file, pointer);
  } catch (error) {
    if (!(error instanceof Degraded || error instanceof SpecError)) throw error;
    const why = error instanceof SpecError ? error.reason : error.message;
    warnings.add(
      "raw-parameter",
      pointer,
      `parameter "${p.name}" (${location}, style ${String(style)}${explode ? ", explode" : ""}): ${why}; the handler gets its raw text, unvalidated`,
    );
    return { ...base, schema: {}, type: "none", style: STYLES[location][0], explode, raw: true };
  }
}

/** How the runtime reads the parameter; throws Degraded saying why it cannot. */
function read(doc: JsonObject, p: JsonObject, param: Parameter, file: string, pointer: string): Parameter {
  const { in: location, style, explode } = param;
  const refuse = (why: string): never => {
    throw new Degraded(why);
  };
  if (p.content !== undefined) {
    const media = isObject(p.content) ? Object.entries(p.content) : [];
    if (media.length !== 1 || !/^application\/([\w.-]+\+)?json$/.test(media[0][0]))
      refuse("a parameter with `content` is read only for exactly one JSON media type");
    const schema = isObject(media[0][1]) ? (media[0][1].schema ?? {}) : {};
    return { ...param, schema, type: "json", explode: false };
  }
  if (!STYLES[location].includes(style))
    refuse(`style "${String(style)}" in ${location} is not supported (${STYLES[location].join(", ")} are)`);
  const schemaAt = `${pointer}/schema`;
  const type = schemaType(doc, param.schema, file, schemaAt);
  const resolved = () =>
    isObject(param.schema) && param.schema.$ref
      ? deref(doc, param.schema, file, schemaAt).value
      : (param.schema as JsonObject);
  const out: Parameter = { ...param, type };
  if ((style === "spaceDelimited" || style === "pipeDelimited") && type !== "array")
    refuse(`${style} needs an array schema`);
  if (style === "deepObject" && type !== "object") refuse("deepObject needs an object schema");
  if (type === "array") {
    const items = scalarOf(schemaType(doc, resolved().items ?? {}, file, `${schemaAt}/items`));
    if (!items)
      refuse(
        "arrays of arrays or objects cannot be read from a parameter (`content: application/json` can carry them)",
      );
    if (location === "cookie" && explode) refuse("an exploded cookie array has no defined form (explode: false has)");
    out.items = items;
  }
  if (type === "object") {
    const props: Record<string, Scalar> = {};
    const properties = resolved().properties;
    for (const [name, sub] of Object.entries(isObject(properties) ? properties : {})) {
      const t = scalarOf(schemaType(doc, sub, file, `${schemaAt}/properties/${name}`));
      if (!t)
        refuse(
          `property "${name}" is an array or object, which this style cannot carry (\`content: application/json\` can)`,
        );
      props[name] = t!;
    }
    if (location === "cookie" && explode) refuse("an exploded cookie object has no defined form (explode: false has)");
    if (style === "form" && explode && Object.keys(props).length === 0)
      refuse("a form-exploded object needs declared properties to find its fields among the query's");
    out.props = props;
  }
  const fallback = resolved()?.default;
  if (!param.required && fallback !== undefined && fitsType(fallback, out.type)) out.default = fallback;
  return out;
}

/** A default the runtime may hand over as the declared type (real documents also carry `default: "10"` for integers). */
function fitsType(value: Json, type: ParamType): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number";
  if (type === "boolean") return typeof value === "boolean";
  if (type === "string") return typeof value === "string";
  return false;
}

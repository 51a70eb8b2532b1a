// Do openapi.yaml and schema.graphql describe the same domain? Pairs every type both specs describe and compares
// them field by field: names, required ↔ non-null, JSON Schema type/format ↔ scalar, array ↔ list, enum values.
// Pairs come from the specs: same names, and the bodies and results of operations paired by x-graphql. What exists
// on one side only, or differs on purpose, says so where it is written (x-unpaired in openapi.yaml, @unpaired in
// schema.graphql), with its reason; anything else that is not paired is named.
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type GraphQLType,
} from "graphql";
import { deref, isObject, textOf, type Json, type JsonObject } from "../load/spec.js";

export interface AgreementConfig {
  /** GraphQL scalar → the JSON Schema type (and format) meaning the same thing. */
  scalars: Record<string, { type: string; format?: string }>;
}

type MismatchKind =
  | "missing-in-graphql"
  | "missing-in-rest"
  | "nullability"
  | "type"
  | "list"
  | "enum-values"
  | "unpaired";

export interface Mismatch {
  kind: MismatchKind;
  /** where, named the GraphQL way: "Book.title", "LoanStatus", "LoanInput.days" */
  at: string;
  /** where on the REST side: "BookInput.title", "Loan.returnedAt" */
  restAt: string;
  rest: string;
  graphql: string;
}

interface Pair {
  restLabel: string;
  rest: JsonObject;
  gql: GraphQLNamedType;
}

const SCHEMAS = "/components/schemas/";

export interface Agreement {
  mismatches: Mismatch[];
  /** the pairs compared, "REST ↔ GraphQL" */
  compared: string[];
  /** GraphQL type → the properties of the REST schemas it was compared with */
  restProperties: Map<string, Set<string>>;
}

/** The two specs, and what the checks build up in turn: the pairs, what pairs with an operation, the mismatches. */
interface Comparison {
  openapi: JsonObject;
  schema: GraphQLSchema;
  config: AgreementConfig;
  restSchemas: JsonObject;
  /** the names of Query, Mutation and Subscription */
  roots: Set<string | undefined>;
  resolve: (raw: Json, at: string) => { value: JsonObject };
  /** to compare, in order; comparing a pair may add the pairs of its fields' types */
  pairs: Pair[];
  queued: Set<string>;
  /** "Type.field" of each GraphQL field paired with an operation */
  pairedFields: Set<string>;
  /** the request body and result of each paired operation, as written */
  pairedOps: [Json | undefined, Json | undefined][];
  /** REST bodies spread over their field's arguments, which the contract (contract.ts) checks instead */
  bodyAsArguments: Set<string>;
  mismatches: Mismatch[];
}

/** One step of the comparison: each reads what the steps before it found. */
type AgreementCheck = (c: Comparison) => void;

/** Pairs first (same names, then paired operations), then their comparison, then what is left unpaired. */
const CHECKS: AgreementCheck[] = [
  pairSameNames,
  pairOperations,
  pairWebhooks,
  comparePairs,
  unpairedRestTypes,
  unpairedGraphqlTypes,
];

export function checkAgreement(
  openapi: JsonObject,
  graphql: string | GraphQLSchema,
  config: AgreementConfig,
  file = "openapi.yaml",
): Agreement {
  const c = comparison(openapi, typeof graphql === "string" ? buildSchema(graphql) : graphql, config, file);
  for (const check of CHECKS) check(c);
  return {
    mismatches: c.mismatches,
    compared: c.pairs.map((p) => (p.restLabel === p.gql.name ? p.restLabel : `${p.restLabel} ↔ ${p.gql.name}`)),
    restProperties: restProperties(c.pairs),
  };
}

function comparison(openapi: JsonObject, schema: GraphQLSchema, config: AgreementConfig, file: string): Comparison {
  return {
    openapi,
    schema,
    config,
    restSchemas: isObject(openapi.components) && isObject(openapi.components.schemas) ? openapi.components.schemas : {},
    roots: new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((t) => t?.name)),
    resolve: (raw, at) => deref(openapi, raw, file, at),
    pairs: [],
    queued: new Set(),
    pairedFields: new Set(),
    pairedOps: [],
    bodyAsArguments: new Set(),
    mismatches: [],
  };
}

/** GraphQL type → the properties of every REST schema it was compared with. */
function restProperties(pairs: Pair[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const { rest, gql } of pairs) {
    const props = isObject(rest.properties) ? Object.keys(rest.properties) : [];
    out.set(gql.name, new Set([...(out.get(gql.name) ?? []), ...props]));
  }
  return out;
}

/** A type of the same name in both specs. */
function pairSameNames(c: Comparison) {
  for (const name of Object.keys(c.restSchemas)) {
    const gql = c.schema.getType(name);
    if (gql && !name.startsWith("__") && !c.roots.has(name) && !isScalarType(gql)) pairNamed(c, name, name);
  }
}

/** The request body and result of each operation paired with a GraphQL field, with the field's input and type. */
function pairOperations(c: Comparison) {
  const { schema } = c;
  for (const { operationId, graphql, unpaired, body, result } of restOperations(c.openapi, c.resolve).flatMap((op) =>
    (op.graphql.length ? op.graphql : [undefined]).map((graphql) => ({ ...op, graphql })),
  )) {
    if (unpaired) continue;
    const [typeName, fieldName] = graphql?.split(".") ?? [];
    const owner = typeName
      ? schema.getType(typeName)
      : schema.getMutationType()?.getFields()[operationId]
        ? schema.getMutationType()
        : schema.getQueryType();
    const field = isObjectType(owner) ? owner.getFields()[fieldName ?? operationId] : undefined;
    if (!field) continue;
    c.pairedFields.add(`${owner!.name}.${field.name}`);
    c.pairedOps.push([body, result]);
    const inputs = field.args.filter((a) => isInputObjectType(getNamedType(a.type)));
    const bodyName = schemaName(body);
    if (inputs.length === 1 && bodyName) pairNamed(c, bodyName, getNamedType(inputs[0].type).name);
    if (inputs.length === 0 && bodyName) c.bodyAsArguments.add(bodyName);
    const resultName = schemaName(result);
    if (resultName && isObjectType(getNamedType(field.type))) pairNamed(c, resultName, getNamedType(field.type).name);
  }
}

/** Each webhook's payload (its body's `data`) with the type of the subscription field its x-graphql names. */
function pairWebhooks(c: Comparison) {
  const subscription = c.schema.getSubscriptionType();
  if (!subscription || !isObject(c.openapi.webhooks)) return;
  for (const [name, rawItem] of Object.entries(c.openapi.webhooks)) {
    const post = c.resolve(rawItem, `/webhooks/${name}`).value.post;
    const target = isObject(post) ? post["x-graphql"] : undefined;
    const field =
      typeof target === "string" && target.startsWith(`${subscription.name}.`)
        ? subscription.getFields()[target.slice(subscription.name.length + 1)]
        : undefined;
    const body =
      isObject(post) && post.requestBody !== undefined
        ? firstSchema(c.resolve(post.requestBody, `/webhooks/${name}`).value.content)
        : undefined;
    const envelope = body === undefined ? undefined : c.resolve(body, `/webhooks/${name}`).value;
    const data = envelope && isObject(envelope.properties) ? envelope.properties.data : undefined;
    // What cannot be paired is named by the contract (model/webhooks.ts).
    if (!field || data === undefined) continue;
    c.pairedFields.add(`${subscription.name}.${field.name}`);
    c.pairedOps.push([undefined, data]);
    const gql = getNamedType(field.type);
    const dataName = schemaName(data);
    if (dataName) pairNamed(c, dataName, gql.name);
    else if (!unpairedGraphql(gql)) pair(c, `webhooks.${name}.data`, c.resolve(data, `/webhooks/${name}`).value, gql);
  }
}

/** Every pair, including those the comparison itself adds (the types of compared fields). */
function comparePairs(c: Comparison) {
  for (let i = 0; i < c.pairs.length; i++) comparePair(c, c.pairs[i]);
}

/** REST schemas a paired operation reaches that were never compared nor declared unpaired. */
function unpairedRestTypes(c: Comparison) {
  const { restSchemas } = c;
  const compared = new Set(c.pairs.map((p) => p.restLabel));
  const seen = new Set<string>();
  const walk = (raw: Json | undefined) => {
    if (!isObject(raw) || unpairedRest(raw)) return;
    const name = schemaName(raw);
    if (name) {
      if (seen.has(name) || !(name in restSchemas) || unpairedRest(restSchemas[name])) return;
      seen.add(name);
      return walk(restSchemas[name]);
    }
    for (const key of ["items", "additionalProperties"]) walk(raw[key]);
    for (const key of ["allOf", "oneOf", "anyOf"]) if (Array.isArray(raw[key])) raw[key].forEach(walk);
    if (isObject(raw.properties)) Object.values(raw.properties).forEach(walk);
  };
  for (const [body, result] of c.pairedOps) {
    walk(body);
    walk(result);
  }
  for (const name of seen) {
    const value = c.resolve(restSchemas[name], `${SCHEMAS}${name}`).value;
    const comparable = properties(value, name) !== undefined || Array.isArray(value.enum);
    if (comparable && !compared.has(name) && !c.bodyAsArguments.has(name)) {
      c.mismatches.push({
        kind: "unpaired",
        at: name,
        restAt: name,
        rest: describeRest(value),
        graphql: "nothing is paired with it",
      });
    }
  }
}

/** GraphQL types a paired field reaches that were never compared nor declared unpaired. */
function unpairedGraphqlTypes(c: Comparison) {
  const { schema } = c;
  const compared = new Set(c.pairs.map((p) => p.gql.name));
  const seen = new Set<string>();
  const walk = (type: GraphQLNamedType) => {
    if (seen.has(type.name) || unpairedGraphql(type)) return;
    seen.add(type.name);
    if (!isObjectType(type) && !isInputObjectType(type)) return;
    for (const field of Object.values(type.getFields()) as (GraphQLField<unknown, unknown> | GraphQLInputField)[]) {
      if (unpairedGraphql(field) || c.pairedFields.has(`${type.name}.${field.name}`)) continue;
      walk(getNamedType(field.type));
      if ("args" in field) for (const arg of field.args) walk(getNamedType(arg.type));
    }
  };
  for (const coordinate of c.pairedFields) {
    const [typeName, fieldName] = coordinate.split(".");
    const field = (schema.getType(typeName) as GraphQLObjectType).getFields()[fieldName];
    walk(getNamedType(field.type));
    for (const arg of field.args) walk(getNamedType(arg.type));
  }
  for (const name of seen) {
    const type = schema.getType(name)!;
    if (
      (isObjectType(type) || isInputObjectType(type) || isEnumType(type)) &&
      !compared.has(name) &&
      !c.roots.has(name)
    ) {
      c.mismatches.push({
        kind: "unpaired",
        at: name,
        restAt: "(none)",
        rest: "nothing is paired with it",
        graphql: isEnumType(type) ? `enum ${name}` : `${isInputObjectType(type) ? "input" : "type"} ${name}`,
      });
    }
  }
}

const unpairedRest = (value: Json) => isObject(value) && typeof value["x-unpaired"] === "string";

const unpairedGraphql = (node: { astNode?: { directives?: readonly { name: { value: string } }[] } | null }) =>
  node.astNode?.directives?.some((d) => d.name.value === "unpaired") === true;

function pair(c: Comparison, restLabel: string, rest: JsonObject, gql: GraphQLNamedType) {
  const key = `${restLabel}\u0000${gql.name}`;
  if (c.queued.has(key)) return;
  c.queued.add(key);
  c.pairs.push({ restLabel, rest, gql });
}

/** A component schema with a GraphQL type, unless either is missing or declared unpaired. */
function pairNamed(c: Comparison, restName: string, gqlName: string) {
  const gql = c.schema.getType(gqlName);
  if (!(restName in c.restSchemas) || !gql || unpairedRest(c.restSchemas[restName]) || unpairedGraphql(gql)) return;
  pair(c, restName, c.resolve(c.restSchemas[restName], `${SCHEMAS}${restName}`).value, gql);
}

function comparePair(c: Comparison, { restLabel, rest, gql }: Pair) {
  if (isEnumType(gql) || isScalarType(gql)) return compareShape(c, rest, undefined, gql, gql.name, restLabel);
  if (!isObjectType(gql) && !isInputObjectType(gql)) {
    return c.mismatches.push({
      kind: "type",
      at: gql.name,
      restAt: restLabel,
      rest: describeRest(rest),
      graphql: `${gql.name} (not comparable)`,
    });
  }
  compareFields(c, restLabel, rest, gql);
}

/** An object schema's properties against a type's fields, name by name (readOnly ones only in output, writeOnly in input). */
function compareFields(
  c: Comparison,
  restLabel: string,
  rest: JsonObject,
  gql: GraphQLObjectType | GraphQLInputObjectType,
) {
  const props = properties(rest, restLabel);
  if (!props)
    return c.mismatches.push({
      kind: "type",
      at: gql.name,
      restAt: restLabel,
      rest: describeRest(rest),
      graphql: `${isInputObjectType(gql) ? "input" : "type"} ${gql.name}`,
    });
  const input = isInputObjectType(gql);
  const fields: Record<string, GraphQLField<unknown, unknown> | GraphQLInputField> = gql.getFields();
  const required = new Set(Array.isArray(rest.required) ? rest.required.map(String) : []);
  const restFields = Object.entries(props.properties).filter(([, p]) => {
    // OpenAPI 3.1 lets readOnly and writeOnly stand beside a $ref: either place marks the property.
    const own = isObject(p) ? p : {};
    const s = typeof own.$ref === "string" ? c.resolve(own, restLabel).value : own;
    return input ? s.readOnly !== true && own.readOnly !== true : s.writeOnly !== true && own.writeOnly !== true;
  });
  const names = new Set([...restFields.map(([n]) => n), ...Object.keys(fields)]);
  for (const name of names) {
    const at = `${gql.name}.${name}`;
    const restAt = `${restLabel}.${name}`;
    const restProp = restFields.find(([n]) => n === name)?.[1];
    const field = fields[name];
    // Declared differences, and navigations that pair with an operation of their own, are not compared.
    if (
      (field && unpairedGraphql(field)) ||
      (restProp !== undefined && unpairedRest(restProp)) ||
      c.pairedFields.has(at)
    )
      continue;
    if (restProp === undefined) {
      c.mismatches.push({ kind: "missing-in-rest", at, restAt, rest: "no such property", graphql: String(field.type) });
    } else if (!field) {
      const r = c.resolve(restProp, props.at);
      c.mismatches.push({
        kind: "missing-in-graphql",
        at,
        restAt,
        rest: describeRest(r.value, restProp),
        graphql: "no such field",
      });
    } else {
      compareValue(c, restProp, required.has(name), field.type, at, restAt);
    }
  }
}

/** Nullability first (optional or nullable in REST ↔ nullable in GraphQL), then the shape. */
function compareValue(c: Comparison, raw: Json, required: boolean, type: GraphQLType, at: string, restAt: string) {
  const { value, nullable } = unwrapNullable(c, raw, restAt);
  const restNullable = !required || nullable;
  if (restNullable === isNonNullType(type)) {
    const how = !required ? "optional" : nullable ? "required but nullable" : "required, non-null";
    c.mismatches.push({
      kind: "nullability",
      at,
      restAt,
      rest: `${describeRest(value, raw)}, ${how}`,
      graphql: String(type),
    });
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner) !== isArray(value)) {
    return c.mismatches.push({ kind: "list", at, restAt, rest: describeRest(value, raw), graphql: String(type) });
  }
  if (isListType(inner))
    return compareValue(c, isObject(value.items) ? value.items : {}, true, inner.ofType, `${at}[]`, `${restAt}[]`);
  compareShape(c, value, raw, inner as GraphQLNamedType, at, restAt);
}

/** A named GraphQL type against a resolved, non-null, non-array REST schema. */
function compareShape(
  c: Comparison,
  value: JsonObject,
  raw: Json | undefined,
  gql: GraphQLNamedType,
  at: string,
  restAt: string,
) {
  const name = raw === undefined ? undefined : schemaName(raw);
  if (isEnumType(gql)) return compareEnum(c, value, raw, gql, at, restAt);
  if (isScalarType(gql)) return compareScalar(c, value, raw, gql, at, restAt);
  if (!properties(value, restAt))
    return c.mismatches.push({ kind: "type", at, restAt, rest: describeRest(value, raw), graphql: gql.name });
  pair(c, name ?? restAt, value, gql);
}

function compareEnum(
  c: Comparison,
  value: JsonObject,
  raw: Json | undefined,
  gql: GraphQLEnumType,
  at: string,
  restAt: string,
) {
  if (!Array.isArray(value.enum))
    return c.mismatches.push({ kind: "type", at, restAt, rest: describeRest(value, raw), graphql: `enum ${gql.name}` });
  // A named enum on both sides is compared once, as its own pair, not at every field that uses it.
  const name = raw === undefined ? undefined : schemaName(raw);
  if (name && raw !== undefined) return pair(c, name, value, gql);
  const rest = value.enum.filter((v) => v !== null).map(String);
  const graphql = gql.getValues().map((v) => v.name);
  const onlyRest = rest.filter((v) => !graphql.includes(v));
  const onlyGraphql = graphql.filter((v) => !rest.includes(v));
  if (onlyRest.length || onlyGraphql.length) {
    const diff = [
      onlyRest.length ? `only in REST: ${onlyRest.join(", ")}` : "",
      onlyGraphql.length ? `only in GraphQL: ${onlyGraphql.join(", ")}` : "",
    ];
    c.mismatches.push({
      kind: "enum-values",
      at,
      restAt,
      rest: `${rest.join(", ")} (${diff.filter(Boolean).join("; ")})`,
      graphql: graphql.join(", "),
    });
  }
}

/** The JSON Schema type (and format) the config says the scalar means; a format another scalar claims is not a plain string. */
function compareScalar(
  c: Comparison,
  value: JsonObject,
  raw: Json | undefined,
  gql: GraphQLScalarType,
  at: string,
  restAt: string,
) {
  const { scalars } = c.config;
  const want = scalars[gql.name];
  const type = jsonType(value);
  const format = typeof value.format === "string" ? value.format : undefined;
  const claimed = Object.values(scalars).some((s) => s.format !== undefined && s.format === format);
  const ok =
    want &&
    !Array.isArray(value.enum) &&
    type === want.type &&
    (want.format === undefined ? !claimed : format === want.format);
  if (!ok)
    c.mismatches.push({
      kind: "type",
      at,
      restAt,
      rest: describeRest(value, raw),
      graphql: want
        ? `${gql.name} (${want.type}${want.format ? `, ${want.format}` : ""})`
        : `${gql.name} (no JSON Schema equivalent declared)`,
    });
}

function unwrapNullable(c: Comparison, raw: Json, at: string): { value: JsonObject; nullable: boolean } {
  let { value } = c.resolve(raw, at);
  let nullable = false;
  for (;;) {
    if (value.nullable === true) nullable = true;
    if (Array.isArray(value.type) && value.type.includes("null")) nullable = true;
    if (Array.isArray(value.enum) && value.enum.includes(null)) nullable = true;
    const branches = [value.oneOf, value.anyOf, value.allOf].find((b): b is Json[] => Array.isArray(b));
    if (!branches) return { value, nullable };
    const rest = branches.filter((b) => !(isObject(b) && b.type === "null"));
    if (rest.length < branches.length) nullable = true;
    if (rest.length !== 1) return { value, nullable };
    value = c.resolve(rest[0], at).value;
  }
}

function properties(value: JsonObject, at: string): { properties: JsonObject; at: string } | undefined {
  if (isObject(value.properties)) return { properties: value.properties, at };
  if (jsonType(value) === "object") return { properties: {}, at };
  return undefined;
}

function schemaName(raw: Json | undefined): string | undefined {
  return isObject(raw) && typeof raw.$ref === "string" && raw.$ref.startsWith(`#${SCHEMAS}`)
    ? raw.$ref.slice(SCHEMAS.length + 1)
    : undefined;
}

function jsonType(value: JsonObject): string | undefined {
  const types = (Array.isArray(value.type) ? value.type : [value.type]).filter((t) => t !== "null" && t !== undefined);
  if (types.length === 1) return textOf(types[0]);
  if (types.length === 0 && isObject(value.properties)) return "object";
  if (types.length === 0 && value.items !== undefined) return "array";
  return types.length ? types.map(textOf).join("|") : undefined;
}

const isArray = (value: JsonObject) => jsonType(value) === "array";

function describeRest(value: JsonObject, raw?: Json): string {
  const name = raw === undefined ? undefined : schemaName(raw);
  if (Array.isArray(value.enum)) return `enum ${name ? `${name} ` : ""}[${value.enum.map(textOf).join(", ")}]`;
  const type = jsonType(value) ?? "any";
  if (type === "array")
    return `array of ${isObject(value.items) ? (schemaName(value.items) ?? jsonType(value.items) ?? "any") : "any"}`;
  if (type === "object") return name ? `object ${name}` : "object";
  return typeof value.format === "string" ? `${type} (${value.format})` : type;
}

interface RestOperation {
  operationId: string;
  /** the fields x-graphql names (a lookup's root field, then relation fields reading what it reads) */
  graphql: string[];
  unpaired: boolean;
  /** the request body schema and the first 2xx response schema, as written (maybe $refs) */
  body?: Json;
  result?: Json;
}

function restOperations(
  openapi: JsonObject,
  resolve: (raw: Json, at: string) => { value: JsonObject },
): RestOperation[] {
  const out: RestOperation[] = [];
  for (const [path, rawItem] of Object.entries(isObject(openapi.paths) ? openapi.paths : {})) {
    for (const op of Object.values(resolve(rawItem, path).value)) {
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      const body = op.requestBody === undefined ? undefined : firstSchema(resolve(op.requestBody, path).value.content);
      const ok = Object.entries(isObject(op.responses) ? op.responses : {}).find(([status]) =>
        /^2\d\d$/.test(status),
      )?.[1];
      out.push({
        operationId: op.operationId,
        graphql: (Array.isArray(op["x-graphql"]) ? op["x-graphql"] : [op["x-graphql"]]).filter(
          (f): f is string => typeof f === "string",
        ),
        unpaired: typeof op["x-unpaired"] === "string",
        body,
        result: ok === undefined ? undefined : firstSchema(resolve(ok, path).value.content),
      });
    }
  }
  return out;
}

function firstSchema(content: Json | undefined): Json | undefined {
  if (!isObject(content)) return undefined;
  const media = Object.values(content).find((m) => isObject(m) && m.schema !== undefined);
  return isObject(media) ? media.schema : undefined;
}

const KIND_TEXT: Record<MismatchKind, string> = {
  "missing-in-graphql": "field only in REST",
  "missing-in-rest": "field only in GraphQL",
  nullability: "required / non-null differs",
  type: "type differs",
  list: "list on one side only",
  "enum-values": "enum values differ",
  unpaired: "neither paired nor declared unpaired",
};

export function formatAgreement(
  mismatches: Mismatch[],
  files = { rest: "openapi.yaml", graphql: "schema.graphql" },
): string {
  const lines = [`${files.rest} and ${files.graphql} disagree (${mismatches.length}):`];
  for (const m of mismatches) {
    lines.push(
      `  ${m.at}: ${KIND_TEXT[m.kind]}`,
      `    REST    ${m.restAt}: ${m.rest}`,
      `    GraphQL ${m.at}: ${m.graphql}`,
    );
  }
  lines.push(
    'Fix one spec, or declare the difference where it is written, with its reason: x-unpaired: "…" in openapi.yaml, @unpaired(reason: "…") in schema.graphql.',
  );
  return lines.join("\n");
}

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
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from "graphql";
import { deref, isObject, textOf, type Json, type JsonObject } from "./spec.js";

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

const unpairedRest = (value: Json) => isObject(value) && typeof value["x-unpaired"] === "string";

export function checkAgreement(openapi: JsonObject, graphql: string | GraphQLSchema, config: AgreementConfig, file = "openapi.yaml"): Agreement {
  const schema = typeof graphql === "string" ? buildSchema(graphql) : graphql;
  const restSchemas = isObject(openapi.components) && isObject(openapi.components.schemas) ? openapi.components.schemas : {};
  const mismatches: Mismatch[] = [];
  const queue: Pair[] = [];
  const queued = new Set<string>();
  const bodyAsArguments = new Set<string>();
  const resolve = (raw: Json, at: string) => deref(openapi, raw, file, at);

  const enqueue = (restLabel: string, rest: JsonObject, gql: GraphQLNamedType) => {
    const key = `${restLabel}\u0000${gql.name}`;
    if (queued.has(key)) return;
    queued.add(key);
    queue.push({ restLabel, rest, gql });
  };
  const unpairedGraphql = (node: { astNode?: { directives?: readonly { name: { value: string } }[] } | null }) =>
    node.astNode?.directives?.some((d) => d.name.value === "unpaired") === true;
  const enqueueNamed = (restName: string, gqlName: string) => {
    const gql = schema.getType(gqlName);
    if (!(restName in restSchemas) || !gql || unpairedRest(restSchemas[restName]) || unpairedGraphql(gql)) return;
    enqueue(restName, resolve(restSchemas[restName], `${SCHEMAS}${restName}`).value, gql);
  };

  // 1. Same name in both specs. 2. The request body and result of each paired operation and its field.
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((t) => t?.name));
  for (const name of Object.keys(restSchemas)) {
    const gql = schema.getType(name);
    if (gql && !name.startsWith("__") && !roots.has(name) && !isScalarType(gql)) enqueueNamed(name, name);
  }
  const pairedFields = new Set<string>();
  const pairedOps: [Json | undefined, Json | undefined][] = [];
  for (const { operationId, graphql, unpaired, body, result } of restOperations(openapi, resolve)) {
    if (unpaired) continue;
    const [typeName, fieldName] = graphql?.split(".") ?? [];
    const owner = typeName ? schema.getType(typeName) : (schema.getMutationType()?.getFields()[operationId] ? schema.getMutationType() : schema.getQueryType());
    const field = isObjectType(owner) ? owner.getFields()[fieldName ?? operationId] : undefined;
    if (!field) continue;
    pairedFields.add(`${owner!.name}.${field.name}`);
    pairedOps.push([body, result]);
    const inputs = field.args.filter((a) => isInputObjectType(getNamedType(a.type)));
    const bodyName = schemaName(body);
    if (inputs.length === 1 && bodyName) enqueueNamed(bodyName, getNamedType(inputs[0].type).name);
    // A body spread over the field's arguments is checked against them by the contract (contract.ts).
    if (inputs.length === 0 && bodyName) bodyAsArguments.add(bodyName);
    const resultName = schemaName(result);
    if (resultName && isObjectType(getNamedType(field.type))) enqueueNamed(resultName, getNamedType(field.type).name);
  }

  for (let i = 0; i < queue.length; i++) comparePair(queue[i]);
  unpairedTypes();
  const restProperties = new Map<string, Set<string>>();
  for (const { rest, gql } of queue) {
    const props = isObject(rest.properties) ? Object.keys(rest.properties) : [];
    restProperties.set(gql.name, new Set([...(restProperties.get(gql.name) ?? []), ...props]));
  }
  return { mismatches, compared: queue.map((p) => (p.restLabel === p.gql.name ? p.restLabel : `${p.restLabel} ↔ ${p.gql.name}`)), restProperties };

  /** Named types that a paired operation or field reaches, yet were never compared nor declared unpaired. */
  function unpairedTypes() {
    const comparedRest = new Set(queue.map((p) => p.restLabel));
    const comparedGraphql = new Set(queue.map((p) => p.gql.name));
    const restSeen = new Set<string>();
    const walkRest = (raw: Json | undefined) => {
      if (!isObject(raw) || unpairedRest(raw)) return;
      const name = schemaName(raw);
      if (name) {
        if (restSeen.has(name) || !(name in restSchemas) || unpairedRest(restSchemas[name])) return;
        restSeen.add(name);
        return walkRest(restSchemas[name]);
      }
      for (const key of ["items", "additionalProperties"]) walkRest(raw[key]);
      for (const key of ["allOf", "oneOf", "anyOf"]) if (Array.isArray(raw[key])) raw[key].forEach(walkRest);
      if (isObject(raw.properties)) Object.values(raw.properties).forEach(walkRest);
    };
    for (const [body, result] of pairedOps) {
      walkRest(body);
      walkRest(result);
    }
    for (const name of restSeen) {
      const value = resolve(restSchemas[name], `${SCHEMAS}${name}`).value;
      const comparable = properties(value, name) !== undefined || Array.isArray(value.enum);
      if (comparable && !comparedRest.has(name) && !bodyAsArguments.has(name)) {
        mismatches.push({ kind: "unpaired", at: name, restAt: name, rest: describeRest(value), graphql: "nothing is paired with it" });
      }
    }
    const graphqlSeen = new Set<string>();
    const walkGraphql = (type: GraphQLNamedType) => {
      if (graphqlSeen.has(type.name) || unpairedGraphql(type)) return;
      graphqlSeen.add(type.name);
      if (!isObjectType(type) && !isInputObjectType(type)) return;
      for (const field of Object.values(type.getFields()) as (GraphQLField<unknown, unknown> | GraphQLInputField)[]) {
        if (unpairedGraphql(field) || pairedFields.has(`${type.name}.${field.name}`)) continue;
        walkGraphql(getNamedType(field.type));
        if ("args" in field) for (const arg of field.args) walkGraphql(getNamedType(arg.type));
      }
    };
    for (const coordinate of pairedFields) {
      const [typeName, fieldName] = coordinate.split(".");
      const field = (schema.getType(typeName) as GraphQLObjectType).getFields()[fieldName];
      walkGraphql(getNamedType(field.type));
      for (const arg of field.args) walkGraphql(getNamedType(arg.type));
    }
    for (const name of graphqlSeen) {
      const type = schema.getType(name)!;
      if ((isObjectType(type) || isInputObjectType(type) || isEnumType(type)) && !comparedGraphql.has(name) && !roots.has(name)) {
        mismatches.push({ kind: "unpaired", at: name, restAt: "(none)", rest: "nothing is paired with it", graphql: isEnumType(type) ? `enum ${name}` : `${isInputObjectType(type) ? "input" : "type"} ${name}` });
      }
    }
  }

  function comparePair({ restLabel, rest, gql }: Pair) {
    if (isEnumType(gql) || isScalarType(gql)) return compareShape(rest, undefined, gql, gql.name, restLabel);
    if (!isObjectType(gql) && !isInputObjectType(gql)) {
      return mismatches.push({ kind: "type", at: gql.name, restAt: restLabel, rest: describeRest(rest), graphql: `${gql.name} (not comparable)` });
    }
    const props = properties(rest, restLabel);
    if (!props) return mismatches.push({ kind: "type", at: gql.name, restAt: restLabel, rest: describeRest(rest), graphql: `${isInputObjectType(gql) ? "input" : "type"} ${gql.name}` });
    const input = isInputObjectType(gql);
    const fields: Record<string, GraphQLField<unknown, unknown> | GraphQLInputField> = gql.getFields();
    const required = new Set(Array.isArray(rest.required) ? rest.required.map(String) : []);
    const restFields = Object.entries(props.properties).filter(([, p]) => {
      const s = isObject(p) && typeof p.$ref !== "string" ? p : isObject(p) ? resolve(p, restLabel).value : {};
      return input ? s.readOnly !== true : s.writeOnly !== true;
    });
    const names = new Set([...restFields.map(([n]) => n), ...Object.keys(fields)]);
    for (const name of names) {
      const at = `${gql.name}.${name}`;
      const restAt = `${restLabel}.${name}`;
      const restProp = restFields.find(([n]) => n === name)?.[1];
      const field = fields[name];
      // Declared differences, and navigations that pair with an operation of their own, are not compared.
      if ((field && unpairedGraphql(field)) || (restProp !== undefined && unpairedRest(restProp)) || pairedFields.has(at)) continue;
      if (restProp === undefined) {
        mismatches.push({ kind: "missing-in-rest", at, restAt, rest: "no such property", graphql: String(field.type) });
      } else if (!field) {
        const r = resolve(restProp, props.at);
        mismatches.push({ kind: "missing-in-graphql", at, restAt, rest: describeRest(r.value, restProp), graphql: "no such field" });
      } else {
        compareValue(restProp, required.has(name), field.type, at, restAt);
      }
    }
  }

  /** Nullability first (optional or nullable in REST ↔ nullable in GraphQL), then the shape. */
  function compareValue(raw: Json, required: boolean, type: GraphQLType, at: string, restAt: string) {
    const { value, nullable } = unwrapNullable(raw, restAt);
    const restNullable = !required || nullable;
    if (restNullable === isNonNullType(type)) {
      const how = !required ? "optional" : nullable ? "required but nullable" : "required, non-null";
      mismatches.push({ kind: "nullability", at, restAt, rest: `${describeRest(value, raw)}, ${how}`, graphql: String(type) });
    }
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner) !== isArray(value)) {
      return mismatches.push({ kind: "list", at, restAt, rest: describeRest(value, raw), graphql: String(type) });
    }
    if (isListType(inner)) return compareValue(isObject(value.items) ? value.items : {}, true, inner.ofType, `${at}[]`, `${restAt}[]`);
    compareShape(value, raw, inner as GraphQLNamedType, at, restAt);
  }

  /** A named GraphQL type against a resolved, non-null, non-array REST schema. */
  function compareShape(value: JsonObject, raw: Json | undefined, gql: GraphQLNamedType, at: string, restAt: string) {
    const name = raw === undefined ? undefined : schemaName(raw);
    if (isEnumType(gql)) {
      if (!Array.isArray(value.enum)) return mismatches.push({ kind: "type", at, restAt, rest: describeRest(value, raw), graphql: `enum ${gql.name}` });
      // A named enum on both sides is compared once, as its own pair, not at every field that uses it.
      if (name && raw !== undefined) return enqueue(name, value, gql);
      const rest = value.enum.filter((v) => v !== null).map(String);
      const graphql = gql.getValues().map((v) => v.name);
      const onlyRest = rest.filter((v) => !graphql.includes(v));
      const onlyGraphql = graphql.filter((v) => !rest.includes(v));
      if (onlyRest.length || onlyGraphql.length) {
        const diff = [onlyRest.length ? `only in REST: ${onlyRest.join(", ")}` : "", onlyGraphql.length ? `only in GraphQL: ${onlyGraphql.join(", ")}` : ""];
        mismatches.push({ kind: "enum-values", at, restAt, rest: `${rest.join(", ")} (${diff.filter(Boolean).join("; ")})`, graphql: graphql.join(", ") });
      }
      return;
    }
    if (isScalarType(gql)) {
      const want = config.scalars[gql.name];
      const type = jsonType(value);
      const format = typeof value.format === "string" ? value.format : undefined;
      const claimed = Object.values(config.scalars).some((s) => s.format !== undefined && s.format === format);
      const ok = want && !Array.isArray(value.enum) && type === want.type && (want.format === undefined ? !claimed : format === want.format);
      if (!ok) mismatches.push({ kind: "type", at, restAt, rest: describeRest(value, raw), graphql: want ? `${gql.name} (${want.type}${want.format ? `, ${want.format}` : ""})` : `${gql.name} (no JSON Schema equivalent declared)` });
      return;
    }
    if (!properties(value, restAt)) return mismatches.push({ kind: "type", at, restAt, rest: describeRest(value, raw), graphql: gql.name });
    enqueue(name ?? restAt, value, gql);
  }

  function unwrapNullable(raw: Json, at: string): { value: JsonObject; nullable: boolean } {
    let { value } = resolve(raw, at);
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
      value = resolve(rest[0], at).value;
    }
  }

  function properties(value: JsonObject, at: string): { properties: JsonObject; at: string } | undefined {
    if (isObject(value.properties)) return { properties: value.properties, at };
    if (jsonType(value) === "object") return { properties: {}, at };
    return undefined;
  }
}

function schemaName(raw: Json | undefined): string | undefined {
  return isObject(raw) && typeof raw.$ref === "string" && raw.$ref.startsWith(`#${SCHEMAS}`) ? raw.$ref.slice(SCHEMAS.length + 1) : undefined;
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
  if (type === "array") return `array of ${isObject(value.items) ? (schemaName(value.items) ?? jsonType(value.items) ?? "any") : "any"}`;
  if (type === "object") return name ? `object ${name}` : "object";
  return typeof value.format === "string" ? `${type} (${value.format})` : type;
}

interface RestOperation {
  operationId: string;
  graphql?: string;
  unpaired: boolean;
  /** the request body schema and the first 2xx response schema, as written (maybe $refs) */
  body?: Json;
  result?: Json;
}

function restOperations(openapi: JsonObject, resolve: (raw: Json, at: string) => { value: JsonObject }): RestOperation[] {
  const out: RestOperation[] = [];
  for (const [path, rawItem] of Object.entries(isObject(openapi.paths) ? openapi.paths : {})) {
    for (const op of Object.values(resolve(rawItem, path).value)) {
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      const body = op.requestBody === undefined ? undefined : firstSchema(resolve(op.requestBody, path).value.content);
      const ok = Object.entries(isObject(op.responses) ? op.responses : {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
      out.push({
        operationId: op.operationId,
        graphql: typeof op["x-graphql"] === "string" ? op["x-graphql"] : undefined,
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

export function formatAgreement(mismatches: Mismatch[], files = { rest: "openapi.yaml", graphql: "schema.graphql" }): string {
  const lines = [`${files.rest} and ${files.graphql} disagree (${mismatches.length}):`];
  for (const m of mismatches) {
    lines.push(`  ${m.at}: ${KIND_TEXT[m.kind]}`, `    REST    ${m.restAt}: ${m.rest}`, `    GraphQL ${m.at}: ${m.graphql}`);
  }
  lines.push('Fix one spec, or declare the difference where it is written, with its reason: x-unpaired: "…" in openapi.yaml, @unpaired(reason: "…") in schema.graphql.');
  return lines.join("\n");
}

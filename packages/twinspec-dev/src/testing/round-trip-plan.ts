// What the write-read round trips are, read from the specs alone: for every resource (x-resource) with a reader (the
// GET at its path) and writers — the operations that create it (201 with its schema), the PUT that replaces it and the
// PATCH that merges into it, each with a JSON body — which properties a client writes, which the server sets, and the
// GraphQL documents that write it (the writer's paired mutation) and read it back (the reader's paired field).
//
// The rule for what is compared: a property of the writer's body schema (its properties and those of its allOf) that
// is not readOnly and that the resource's representation also has, by name. What only the representation has — ids,
// timestamps, owners, computed values — is set by the server: sent, it must be refused (the body schema says
// additionalProperties: false) or ignored (the server's value stands). A readOnly property of the body is refused
// (Twinspec's validators refuse readOnly properties in requests). A body property the representation lacks (writeOnly,
// or not part of it) is not read back and not compared.
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from "graphql";
import type { AppDefinition, InputRules, ResourceInfo } from "twinspec/internals";
import { isObject, type JsonObject } from "../codegen/load/spec.js";
import { specOf, type Operation, type Spec } from "./spec.js";

/** How a writer changes the resource: makes one, replaces its writable state, or merges a patch into it. */
type WriteKind = "create" | "replace" | "merge";

/** A GraphQL root field with the rules its arguments share with its paired operation. */
export interface PairedField {
  /** "Mutation.createNote", "Query.note" */
  coordinate: string;
  field: GraphQLField<unknown, unknown>;
  rules: InputRules;
}

/** One operation that writes a resource, and what of it a round trip compares. */
export interface Writer {
  resource: string;
  info: ResourceInfo;
  op: Operation;
  kind: WriteKind;
  /** the request body's media type (its first) */
  mediaType: string;
  /** the request body's schema, resolved */
  schema: JsonObject;
  /** the body's properties that read back (the rule above) */
  writable: string[];
  /** the representation's properties the server sets, and the body's readOnly ones: sent, refused or ignored */
  serverSet: string[];
  /** the body schema refuses properties it does not name */
  closed: boolean;
  /** the paired mutation, when x-graphql pairs one whose arguments carry the body */
  mutation?: PairedField;
}

/** What reads a resource back: its GET, and the paired GraphQL field. */
interface Reader {
  op: Operation;
  /** the representation's schema, resolved */
  schema: JsonObject;
  query?: PairedField;
}

/** The round trips of one resource. */
export interface ResourceRoundTrips {
  resource: string;
  info: ResourceInfo;
  reader: Reader;
  writers: Writer[];
  /** what makes an instance to replace or patch: its creators, POSTs first (the first that is no stub is used) */
  creators: Operation[];
}

/** The object schema's properties, with those of its allOf members. */
function propertiesOf(resolve: Spec["resolve"], schema: JsonObject): Record<string, JsonObject> {
  const own = isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {};
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map((s) => propertiesOf(resolve, resolve(s))) : [];
  return Object.assign({}, ...parts, own);
}

const isReadOnly = (resolve: Spec["resolve"], raw: unknown): boolean =>
  isObject(raw) && (raw.readOnly === true || (typeof raw.$ref === "string" && resolve(raw).readOnly === true));

/** The media type and schema of the operation's JSON request body (application/json or any +json); undefined: none. */
function jsonBody(spec: Spec, op: Operation): { mediaType: string; schema: JsonObject } | undefined {
  const raw = spec.resolve((spec.doc.paths as JsonObject)[op.path]);
  const body = spec.resolve((raw[op.method.toLowerCase()] as JsonObject).requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const found = Object.entries(body.content).find(([type]) => /^application\/([\w.+-]+\+)?json$/.test(type));
  const media = found?.[1];
  return found && isObject(media) && media.schema
    ? { mediaType: found[0], schema: spec.resolve(media.schema) }
    : undefined;
}

/** The operations answering 201 with the resource's schema; a PUT at the resource's own path is its replacer. */
function creatorsOf(spec: Spec, info: ResourceInfo): Operation[] {
  const ref = `"#/components/schemas/${info.schema}"`;
  return spec.operations.filter((op) => {
    if (op.method === "PUT" && op.path === info.path) return false;
    const raw = spec.resolve((spec.doc.paths as JsonObject)[op.path])[op.method.toLowerCase()];
    const created = (raw as JsonObject).responses && ((raw as JsonObject).responses as JsonObject)["201"];
    return created !== undefined && JSON.stringify(spec.resolve(created).content ?? {}).includes(ref);
  });
}

/** The paired root field of an operation (x-graphql), with its argument rules; undefined when it pairs none. */
function pairedField(spec: Spec, definition: AppDefinition, op: Operation, root: "Query" | "Mutation") {
  const coordinate = definition.contract.pairs[op.operationId];
  if (!coordinate?.startsWith(`${root}.`)) return undefined;
  const type = root === "Query" ? spec.graphqlSchema.getQueryType() : spec.graphqlSchema.getMutationType();
  const field = type?.getFields()[coordinate.slice(root.length + 1)];
  const rules = spec.graphqlInputs[coordinate];
  return field && rules ? { coordinate, field, rules } : undefined;
}

/**
 * Every resource's round trips: its reader and writers, and which properties each writer's round trip compares.
 * A resource without a GET at its path, or without a writer with a JSON body, has none.
 *
 * @param definition - the application (its specs are read from the project's root)
 */
export function roundTripsOf(definition: AppDefinition): ResourceRoundTrips[] {
  const spec = specOf(definition);
  const { resolve } = spec;
  const found: ResourceRoundTrips[] = [];
  for (const [resource, info] of Object.entries(spec.resources)) {
    const get = spec.operations.find((o) => o.method === "GET" && o.path === info.path);
    const representation = (spec.doc.components as JsonObject | undefined)?.schemas as JsonObject | undefined;
    if (!get || !representation?.[info.schema]) continue;
    const schema = resolve(representation[info.schema]);
    const shown = propertiesOf(resolve, schema);
    const creators = creatorsOf(spec, info);
    const candidates: [Operation, WriteKind][] = [
      ...creators.map((op) => [op, "create"] as [Operation, WriteKind]),
      ...spec.operations
        .filter((o) => o.path === info.path && (o.method === "PUT" || o.method === "PATCH"))
        .map((op) => [op, op.method === "PUT" ? "replace" : "merge"] as [Operation, WriteKind]),
    ];
    const writers: Writer[] = [];
    for (const [op, kind] of candidates) {
      const body = jsonBody(spec, op);
      if (!body) continue;
      const props = propertiesOf(resolve, body.schema);
      const writable = Object.keys(props).filter((p) => p in shown && !isReadOnly(resolve, props[p]));
      if (writable.length === 0) continue;
      const serverSet = [
        ...Object.keys(shown).filter((p) => !(p in props)),
        ...Object.keys(props).filter((p) => isReadOnly(resolve, props[p])),
      ];
      const mutation = pairedField(spec, definition, op, "Mutation");
      writers.push({
        resource,
        info,
        op,
        kind,
        ...body,
        writable,
        serverSet,
        closed: body.schema.additionalProperties === false,
        ...(mutation?.rules.body ? { mutation } : {}),
      });
    }
    if (writers.length === 0) continue;
    found.push({
      resource,
      info,
      reader: { op: get, schema, query: pairedField(spec, definition, get, "Query") },
      writers,
      creators: [...creators].sort((a, b) => Number(b.method === "POST") - Number(a.method === "POST")),
    });
  }
  return found;
}

/**
 * The selection that reads `props` of a GraphQL object type, each nested object down to the fields its JSON schema
 * names too; a property without a field of its name (REST-only) is left out, and so is one whose field needs arguments
 * or is abstract.
 *
 * @param resolve - the spec's $ref resolver
 * @param type - the GraphQL object type
 * @param schema - the JSON schema of the same representation
 * @param props - the properties to read (default all the schema names)
 */
export function selectionOf(
  resolve: Spec["resolve"],
  type: GraphQLObjectType,
  schema: JsonObject,
  props?: readonly string[],
  depth = 0,
): { selection: string; fields: string[] } {
  const shown = propertiesOf(resolve, schema);
  const fields: string[] = [];
  const parts: string[] = [];
  for (const name of props ?? Object.keys(shown)) {
    const field = type.getFields()[name];
    if (!field || field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      parts.push(name);
      fields.push(name);
    } else if (isObjectType(named) && depth < 4) {
      let inner = resolve(shown[name] ?? {});
      while (inner.type === "array" || (Array.isArray(inner.type) && inner.type.includes("array")))
        inner = resolve(inner.items ?? {});
      const nested = selectionOf(resolve, named, inner, undefined, depth + 1);
      parts.push(`${name} { ${nested.selection || "__typename"} }`);
      fields.push(name);
    }
  }
  return { selection: parts.join(" "), fields };
}

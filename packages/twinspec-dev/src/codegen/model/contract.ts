// What openapi.yaml and schema.graphql state together, read once for everything `npm run generate` derives from
// them: the resources (tags with x-resource), the scopes (x-scopes of the bearer scheme), which REST operation
// pairs with which GraphQL field (x-graphql, x-unpaired, @unpaired), who owns the target of each operation and root
// field, which GraphQL fields need a resolver, in which tag's file, and the rate limits (rate-limits.ts). Nothing
// here is kept per resource by hand: a new resource is a tag, its schemas, its operations and its GraphQL types.
// Every inconsistency is named.
import {
  buildSchema,
  getDirectiveValues,
  getNamedType,
  isInputObjectType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import type { ContractProblem } from "../load/diagnostics.js";
import { EVENT_STREAM, PART_KEY, PARTS_KEY } from "twinspec/internals";
import { answersEtag, type Operation } from "./operations.js";
import { checkParents, parentRule, type ParentRule } from "./parents.js";
import type { Resource } from "./resource.js";
import { notARelation, relationOf, type Relation } from "./relations.js";
import { readGraphqlRateLimits, readRestRateLimits, type RateLimits } from "./rate-limits.js";
import { readWebhooks, webhookTargets, type Webhook } from "./webhooks.js";
import { deref, isObject, textOf, type Json, type JsonObject } from "../load/spec.js";

export type { Resource };

/** Whose data an operation or root field acts on. */
type Ownership =
  /** the instance named by this path parameter or argument, of this resource */
  | { kind: "instance"; resource: string; from: string }
  /** every instance of an owned resource (only an admin may) */
  | { kind: "collection"; resource: string }
  /** nobody's in particular: the scopes decide */
  | { kind: "none" };

/** A root field's input, checked by the same validators as its paired operation's. */
interface InputPlan {
  operationId: string;
  /** arguments named like the operation's path parameters */
  pathArgs: string[];
  /** the input object argument checked as the request body; or, with no such argument, these arguments as its properties */
  body?: { contentType: string } & ({ arg: string } | { args: string[] });
}

export interface FieldPlan {
  /** "Query.book", "Member.loans" */
  coordinate: string;
  type: string;
  field: string;
  root: boolean;
  /** the tag whose src/graphql/<tag>.ts holds its resolver */
  tag: string;
  operationId?: string;
  /** root fields: whose data they act on */
  ownership?: Ownership;
  /** root fields of a resource owned through a parent: the parent that must be live before the resolver runs */
  parent?: ParentRule;
  /** a relation (relations.ts): its resolver is generated, over a batch loader, not written in src/graphql/ */
  relation?: Relation;
  input?: InputPlan;
  /** paired with an operation of a Twinspec part (x-twinspec-part): the framework resolves it, no file holds it */
  part?: string;
}

export interface Contract {
  scopes: Record<string, string>;
  resources: Resource[];
  /** every operation's ownership and pairing, by operationId */
  operations: Map<string, { tag: string; graphql?: string; ownership: Ownership; parent?: ParentRule; part?: string }>;
  /** GraphQL fields that need a resolver: every root field, and fields a domain object does not carry */
  fields: FieldPlan[];
  /** GraphQL object type → the tag of its domain model (types paired with a resource schema) */
  models: Map<string, string>;
  /** custom scalars (each needs an implementation in src/graphql/scalars.ts) */
  scalars: string[];
  /** the budgets of x-rate-limit and @rateLimit, and which operations spend which (rate-limits.ts) */
  rateLimits: RateLimits;
  /** the webhooks (openapi.yaml's webhooks:), each paired with the subscription field carrying its event */
  webhooks: Webhook[];
  /** the Twinspec parts openapi.yaml includes (x-twinspec-parts), merged into both specs as read here */
  parts: string[];
}

export type { ContractProblem } from "../load/diagnostics.js";

const ROOTS = ["Query", "Mutation", "Subscription"];

/** Everything the two specs say together, or what is wrong with them. `restProps` gives a GraphQL type's paired REST properties. */
export function readContract(
  doc: JsonObject,
  operations: Operation[],
  sdl: string | GraphQLSchema,
  restProps: (graphqlType: string) => Set<string> | undefined,
  files = { rest: "openapi.yaml", graphql: "schema.graphql" },
): { contract: Contract; problems: ContractProblem[] } {
  const schema = typeof sdl === "string" ? buildSchema(sdl) : sdl;
  const problems: ContractProblem[] = [];
  const rest = (pointer: string, message: string) => problems.push({ at: `${files.rest}#${pointer}`, message });
  const gql = (where: string, message: string) => problems.push({ at: `${files.graphql} ${where}`, message });

  const scopes = readScopes(doc, rest);
  const resources = readResources(doc, operations, files.rest, rest);
  const byTag = new Map(resources.map((r) => [r.tag, r]));
  const byId = new Map(resources.map((r) => [r.id, r]));
  const bySchema = new Map(resources.map((r) => [r.schema, r]));
  const declaredTags = new Set(tagList(doc).map((t) => t.name));

  // Scopes: every one asked for is declared.
  for (const op of operations) {
    for (const scope of op.security.flat().flatMap((r) => r.scopes)) {
      if (!(scope in scopes))
        rest(
          `/paths/${op.operationId}`,
          `${op.operationId} asks for scope "${scope}", which no security scheme's x-scopes declares`,
        );
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const [where, node] of [
      [type.name, type],
      ...Object.values(type.getFields()).map((f) => [`${type.name}.${f.name}`, f] as const),
    ] as const) {
      for (const scope of authScopes(schema, node))
        if (!(scope in scopes))
          gql(where, `@auth asks for scope "${scope}", which openapi.yaml's x-scopes does not declare`);
    }
  }

  // Pairing: every operation is paired with one GraphQL field, or says why not.
  const opInfo: Contract["operations"] = new Map();
  const pairedField = new Map<string, Operation>();
  // Fields x-graphql names after an operation's first: each must be a relation (relations.ts).
  const extras = new Map<string, Operation>();
  for (const op of operations) {
    const where = `/paths/${op.operationId}`;
    const tag = op.tags[0] ?? "default";
    if (op.tags.length === 0)
      rest(where, `${op.operationId} has no tag; its first tag names the file that implements it (src/rest/<tag>.ts)`);
    else if (!declaredTags.has(tag)) rest(where, `${op.operationId}'s tag "${tag}" is not declared under tags`);
    const targets = pairedTargets(op.extensions["x-graphql"]);
    const unpaired = op.extensions["x-unpaired"];
    let graphql: string | undefined;
    if (targets) {
      targets.forEach((target, i) => {
        const [typeName, fieldName] = target.split(".");
        const type = schema.getType(typeName);
        if (!isObjectType(type) || !type.getFields()[fieldName])
          rest(where, `${op.operationId}: x-graphql names ${target}, which ${files.graphql} does not have`);
        else if (pairedField.has(target))
          rest(where, `${op.operationId}: ${target} is already paired with ${pairedField.get(target)!.operationId}`);
        else {
          pairedField.set(target, op);
          if (i > 0) return void extras.set(target, op);
          graphql = target;
          const streams = op.responses.some((r) => r.status === "200" && r.contentTypes.includes(EVENT_STREAM));
          if (typeName === schema.getSubscriptionType()?.name) {
            if (op.method !== "get" || !streams)
              rest(
                where,
                `${op.operationId} pairs with the subscription ${target}: it must be a GET answering 200 ${EVENT_STREAM} (each event one message)`,
              );
          } else if (streams)
            rest(
              where,
              `${op.operationId} answers ${EVENT_STREAM}: pair it with a subscription field (x-graphql: Subscription.<field>)`,
            );
        }
      });
      if (unpaired !== undefined) rest(where, `${op.operationId} has both x-graphql and x-unpaired; keep one`);
    } else if (op.extensions["x-graphql"] !== undefined) {
      rest(
        where,
        `${op.operationId}: x-graphql is a field (Type.field), or a list of them: its counterpart first, then relation fields that read what it reads`,
      );
    } else if (typeof unpaired !== "string" || unpaired.trim() === "") {
      rest(
        where,
        `${op.operationId} is not paired: add x-graphql: <Type.field> naming its GraphQL counterpart, or x-unpaired: <why it is REST-only>`,
      );
    }
    const parent = parentRule(
      byTag.get(tag),
      [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      byTag,
    );
    const part = op.extensions[PART_KEY];
    opInfo.set(op.operationId, {
      tag,
      graphql,
      ownership: restOwnership(op, byId, byTag),
      ...(parent ? { parent } : {}),
      ...(typeof part === "string" ? { part } : {}),
    });
  }

  // GraphQL fields: where each resolver lives, who owns what a root field touches, which input rules it shares.
  const tags = typeTags(schema, bySchema, pairedField);
  const fields: FieldPlan[] = [];
  // A subscription field a webhook names is paired by it (its resolver lives in the webhook's first tag's file).
  const hooks = webhookTargets(doc);
  const models = new Map<string, string>();
  for (const [name, resource] of bySchema) if (isObjectType(schema.getType(name))) models.set(name, resource.tag);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    const root =
      ROOTS.includes(type.name) &&
      [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type);
    const props = root ? undefined : restProps(type.name);
    for (const field of Object.values(type.getFields())) {
      const coordinate = `${type.name}.${field.name}`;
      const op = pairedField.get(coordinate);
      const unpaired = directive(schema, field, "unpaired");
      const hook = hooks.get(coordinate);
      if (root && !op && !unpaired && !hook)
        gql(
          coordinate,
          `${coordinate} is not paired: name it in an operation's x-graphql, or add @unpaired(reason: "…")`,
        );
      const needsResolver =
        root || field.args.length > 0 || op !== undefined || (props !== undefined && !props.has(field.name));
      if (!needsResolver) continue;
      const tag =
        op?.tags[0] ??
        (unpaired?.tag as string | undefined) ??
        (hook || undefined) ??
        (root ? resultTag(field, bySchema) : tags.get(type.name));
      if (!tag) {
        gql(
          coordinate,
          `cannot tell which tag's file holds the resolver of ${coordinate}: pair it with an operation, or add @unpaired(reason: "…", tag: "<tag>")`,
        );
        continue;
      }
      const plan: FieldPlan = {
        coordinate,
        type: type.name,
        field: field.name,
        root,
        tag,
        ...(op ? { operationId: op.operationId } : {}),
        ...(op && typeof op.extensions[PART_KEY] === "string" ? { part: op.extensions[PART_KEY] } : {}),
      };
      if (root) {
        plan.ownership = fieldOwnership(field, op, byId, byTag, bySchema);
        const parent = parentRule(
          byTag.get(tag),
          field.args.map((a) => a.name),
          byTag,
        );
        if (parent) plan.parent = parent;
        if (op) plan.input = inputPlan(doc, field, op, files.rest, (message) => gql(coordinate, message));
      } else {
        const relation = relationOf(type.name, field, op, props, bySchema, byTag);
        if (relation) plan.relation = relation;
      }
      // Only a relation may follow an operation's first field in its x-graphql (a root field never is one).
      if (extras.has(coordinate) && !plan.relation)
        rest(`/paths/${op!.operationId}`, notARelation(coordinate, op!, byTag));
      fields.push(plan);
    }
  }
  const scalars = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith("__") && t.astNode?.kind === "ScalarTypeDefinition")
    .map((t) => t.name);
  const byCoordinate = new Map(fields.map((f) => [f.coordinate, f]));
  const webhooks = readWebhooks(
    doc,
    schema,
    resources,
    (coordinate) => byCoordinate.get(coordinate)?.ownership,
    operations,
    files.rest,
    rest,
  );
  // Owners agree: a webhook's owner is its subscription's, and so must be that of the REST event stream paired with it.
  for (const hook of webhooks) {
    const coordinate = `${schema.getSubscriptionType()!.name}.${hook.field}`;
    const stream = pairedField.get(coordinate);
    const own = byCoordinate.get(coordinate)?.ownership;
    const streamOwn = stream ? opInfo.get(stream.operationId)?.ownership : undefined;
    if (own && streamOwn && JSON.stringify(own) !== JSON.stringify(streamOwn)) {
      rest(
        `/webhooks/${hook.name}`,
        `webhook ${hook.name} is owned as ${coordinate} is (${JSON.stringify(own)}), but the event stream ${stream!.operationId} paired with it as ${JSON.stringify(streamOwn)}: make them agree`,
      );
    }
  }
  const restLimits = readRestRateLimits(doc, operations, rest);
  const graphqlLimits = readGraphqlRateLimits(schema, gql);
  const rateLimits = {
    budgets: { ...restLimits.budgets, ...graphqlLimits.budgets },
    rest: restLimits.rest,
    graphql: graphqlLimits.graphql,
  };
  return {
    contract: {
      scopes,
      resources,
      operations: opInfo,
      fields,
      models,
      scalars,
      rateLimits,
      webhooks,
      parts: Array.isArray(doc[PARTS_KEY]) ? doc[PARTS_KEY].map(String) : [],
    },
    problems,
  };
}

/** The fields x-graphql names: one (a string), or a non-empty list of them; undefined when it is neither. */
function pairedTargets(value: Json | undefined): string[] | undefined {
  if (typeof value === "string") return [value];
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string") ? value : undefined;
}

export function readScopes(
  doc: JsonObject,
  problem: (pointer: string, message: string) => void,
): Record<string, string> {
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const scopes: Record<string, string> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isObject(scheme) || scheme["x-scopes"] === undefined) continue;
    const declared = scheme["x-scopes"];
    if (!isObject(declared)) {
      problem(`/components/securitySchemes/${name}/x-scopes`, "x-scopes must map each scope to its description");
      continue;
    }
    for (const [scope, description] of Object.entries(declared))
      scopes[scope] = typeof description === "string" ? description : "";
  }
  return scopes;
}

function tagList(doc: JsonObject): JsonObject[] {
  return Array.isArray(doc.tags) ? doc.tags.filter(isObject).filter((t) => typeof t.name === "string") : [];
}

function readResources(
  doc: JsonObject,
  operations: Operation[],
  file: string,
  problem: (pointer: string, message: string) => void,
): Resource[] {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const resources: Resource[] = [];
  tagList(doc).forEach((tag, i) => {
    const spec = tag["x-resource"];
    if (spec === undefined) return;
    const where = `/tags/${i}/x-resource`;
    const name = textOf(tag.name);
    const through = isObject(spec) && isObject(spec.owner) ? spec.owner : undefined;
    if (
      !isObject(spec) ||
      typeof spec.schema !== "string" ||
      typeof spec.id !== "string" ||
      typeof spec.idPrefix !== "string" ||
      (typeof spec.owner !== "string" && !through)
    ) {
      return problem(
        where,
        `tag ${name}: x-resource needs schema, id, idPrefix and owner ("none", the property naming the owner, or { through: <parent tag>, by: <property naming the parent> })`,
      );
    }
    if (through && (typeof through.through !== "string" || typeof through.by !== "string")) {
      return problem(
        `${where}/owner`,
        `tag ${name}: an owner through a parent is { through: <the parent's tag>, by: <the property naming the parent> }`,
      );
    }
    if (!(spec.schema in schemas))
      return problem(`${where}/schema`, `tag ${name}: no schema ${spec.schema} under components/schemas`);
    const props = propertiesOf(doc, schemas[spec.schema], file, `/components/schemas/${spec.schema}`);
    if (!props.has(spec.id)) problem(`${where}/id`, `tag ${name}: ${spec.schema} has no property ${spec.id}`);
    if (!/^[a-z][a-z0-9]{1,7}$/.test(spec.idPrefix))
      problem(`${where}/idPrefix`, `tag ${name}: idPrefix must be 2-8 lowercase letters or digits`);
    const ownerProp = through ? (through.by as string) : (spec.owner as string);
    if (ownerProp !== "none" && !props.has(ownerProp)) {
      problem(
        `${where}/owner${through ? "/by" : ""}`,
        through
          ? `tag ${name}: owner.by must be a property of ${spec.schema}, not "${ownerProp}"`
          : `tag ${name}: owner must be "none" or a property of ${spec.schema}, not "${ownerProp}"`,
      );
    }
    const id = spec.id;
    const reads = operations.filter((op) => op.method === "get" && op.path.endsWith(`/{${id}}`));
    if (reads.length !== 1)
      problem(
        where,
        `tag ${name}: expected exactly one GET …/{${spec.id}} (the resource's URL), found ${reads.length}`,
      );
    const owner = ownerProp === spec.id ? "self" : ownerProp;
    const read = reads[0];
    resources.push({
      tag: name,
      schema: spec.schema,
      id: spec.id,
      idPrefix: spec.idPrefix,
      owner,
      ...(through ? { through: through.through as string } : {}),
      path: read?.path ?? "",
      etag: !!read && answersEtag(read),
    });
  });
  checkParents(resources, problem);
  return resources;
}

function propertiesOf(doc: JsonObject, raw: Json, file: string, at: string): Set<string> {
  const value = deref(doc, raw, file, at).value;
  const props = new Set(isObject(value.properties) ? Object.keys(value.properties) : []);
  for (const part of Array.isArray(value.allOf) ? value.allOf : [])
    for (const p of propertiesOf(doc, part, file, at)) props.add(p);
  return props;
}

/** The first path parameter naming an owned resource's instance; else the operation's own resource as a whole. */
function restOwnership(op: Operation, byId: Map<string, Resource>, byTag: Map<string, Resource>): Ownership {
  for (const name of [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    const resource = byId.get(name);
    if (resource)
      return resource.owner === "none" ? { kind: "none" } : { kind: "instance", resource: resource.tag, from: name };
  }
  const own = byTag.get(op.tags[0] ?? "");
  return own && own.owner !== "none" ? { kind: "collection", resource: own.tag } : { kind: "none" };
}

function fieldOwnership(
  field: GraphQLField<unknown, unknown>,
  op: Operation | undefined,
  byId: Map<string, Resource>,
  byTag: Map<string, Resource>,
  bySchema: Map<string, Resource>,
): Ownership {
  for (const arg of field.args) {
    const resource = byId.get(arg.name);
    if (resource)
      return resource.owner === "none"
        ? { kind: "none" }
        : { kind: "instance", resource: resource.tag, from: arg.name };
  }
  const own = (op && byTag.get(op.tags[0] ?? "")) ?? bySchema.get(getNamedType(field.type).name);
  return own && own.owner !== "none" ? { kind: "collection", resource: own.tag } : { kind: "none" };
}

function resultTag(field: GraphQLField<unknown, unknown>, bySchema: Map<string, Resource>): string | undefined {
  return bySchema.get(getNamedType(field.type).name)?.tag;
}

/** Tag of every object type: its resource's, else that of the first tagged type or root field reaching it. */
function typeTags(
  schema: GraphQLSchema,
  bySchema: Map<string, Resource>,
  paired: Map<string, Operation>,
): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [name, resource] of bySchema) if (schema.getType(name)) tags.set(name, resource.tag);
  const queue: string[] = [...tags.keys()];
  for (const rootType of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(rootType?.getFields() ?? {})) {
      const tag =
        paired.get(`${rootType!.name}.${field.name}`)?.tags[0] ??
        (directive(schema, field, "unpaired")?.tag as string | undefined);
      const target = getNamedType(field.type).name;
      if (tag && !tags.has(target)) {
        tags.set(target, tag);
        queue.push(target);
      }
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const type = schema.getType(queue[i]);
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type).name;
      if (!tags.has(target) && isObjectType(schema.getType(target))) {
        tags.set(target, tags.get(type.name)!);
        queue.push(target);
      }
    }
  }
  return tags;
}

function inputPlan(
  doc: JsonObject,
  field: GraphQLField<unknown, unknown>,
  op: Operation,
  file: string,
  problem: (message: string) => void,
): InputPlan | undefined {
  const pathParams = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name));
  const pathArgs = field.args.filter((a) => pathParams.has(a.name)).map((a) => a.name);
  const plan: InputPlan = { operationId: op.operationId, pathArgs };
  const contentType = op.requestBody?.contentTypes.find((t) => t === "application/json" || t.endsWith("+json"));
  if (contentType) {
    const rest = field.args.filter((a) => !pathParams.has(a.name));
    const inputs = rest.filter((a) => isInputObjectType(getNamedType(a.type)));
    if (inputs.length === 1 && rest.length === 1) plan.body = { contentType, arg: inputs[0].name };
    else if (inputs.length === 0 && rest.length > 0) {
      const props = propertiesOf(
        doc,
        op.requestBody!.schemas[contentType],
        file,
        `/paths/${op.operationId}/requestBody`,
      );
      const strays = rest.filter((a) => !props.has(a.name)).map((a) => a.name);
      if (strays.length)
        problem(`arguments ${strays.join(", ")} are not properties of ${op.operationId}'s request body`);
      plan.body = { contentType, args: rest.map((a) => a.name) };
    } else if (rest.length > 0)
      problem(
        `pairs with ${op.operationId}, whose body must be one input object argument, or arguments named like its properties`,
      );
  }
  return plan.body || pathArgs.length ? plan : undefined;
}

function authScopes(schema: GraphQLSchema, node: GraphQLNamedType | GraphQLField<unknown, unknown>): string[] {
  const values = directive(schema, node, "auth");
  return Array.isArray(values?.scopes) ? values.scopes.map(String) : [];
}

/** The arguments of a directive applied to a type or field (undefined when it is not applied). */
function directive(
  schema: GraphQLSchema,
  node: { astNode?: unknown },
  name: string,
): Record<string, unknown> | undefined {
  const definition = schema.getDirective(name);
  if (!definition || !node.astNode) return undefined;
  return getDirectiveValues(definition, node.astNode) ?? undefined;
}

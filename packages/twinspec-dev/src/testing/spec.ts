// What the kit's walks read from an application's specs alone (its `definition` and the project's openapi.yaml and
// schema.graphql): each operation's sample body (its requestBody example), the resources and who owns them
// (x-resource), request schemas, and a "world" — one instance of every resource, made through the API the way a client
// would (the operation that answers 201/202 with that resource; what its path or body names of other resources made
// first), and what the PUTs of paths beside them set. A new resource in the specs is walked without editing anything.
import { buildSchema, getNamedType, isCompositeType, type GraphQLField, type GraphQLSchema } from "graphql";
import { isObject, type JsonObject } from "../codegen/load/spec.js";
import { loadWithParts } from "../codegen/load/parts.js";
import type { AppDefinition, ResourceInfo } from "twinspec/internals";
import { loadTypeDefs } from "twinspec/internals";
import type { OperationSpec } from "twinspec/internals";
import { projectFile } from "twinspec/internals";
import { call } from "./client.js";
import { asking } from "./coverage.js";
import { testServerAt } from "./server.js";

/** One operation of the specs, as the kit reads it: the runtime's OperationSpec. */
export type Operation = OperationSpec;
export type TestDefinition = Pick<AppDefinition, "operationSpecs" | "contract">;

/**
 * The names of a path template's parameters, in order ("/members/{memberId}/loans/{loanId}" → ["memberId", "loanId"]).
 *
 * @param path - a path template as the spec writes it
 */
export const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
/**
 * Whether the operation declares this exact status (not a range, not default).
 *
 * @param op - the operation
 * @param status - the status
 */
export const declares = (op: Operation, status: number) => String(status) in op.responses;
/**
 * The operation's path with each parameter replaced by the id `ids` gives it (URL-encoded).
 *
 * @param op - the operation
 * @param ids - values by path parameter name (a World's `ids`)
 */
export const urlOf = (op: Operation, ids: Record<string, string>) =>
  op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]));

/**
 * A multipart/form-data body from an example object: each file part (as the operation reads it) a file of the
 * example string's bytes (one character, one byte) in the first media type its encoding allows; other parts text.
 */
function formData(op: Operation, example: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example)) {
    const part = op.body?.multipart?.[name];
    if (part?.type === "file" || part?.type === "files") {
      for (const file of [value].flat())
        form.append(
          name,
          new Blob([Buffer.from(String(file), "latin1")], {
            type: part.contentTypes?.[0] ?? "application/octet-stream",
          }),
          name,
        );
    } else {
      form.append(name, typeof value === "string" ? value : JSON.stringify(value));
    }
  }
  return form;
}

/**
 * A document calling the root field `root.field` alone, one variable per argument `values` gives, selecting
 * __typename under an object (or `selection`, braces included); `alias` names its answer, `also` is selected beside it.
 */
export function fieldCall(
  root: string,
  field: GraphQLField<unknown, unknown>,
  values: Record<string, unknown>,
  { alias, also, selection }: { alias?: string; also?: string; selection?: string } = {},
) {
  const args = field.args.filter((a) => a.name in values);
  const declared = args.length ? `(${args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ")})` : "";
  const passed = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(", ")})` : "";
  const selected = selection ?? (isCompositeType(getNamedType(field.type)) ? " { __typename }" : "");
  const answer = `${alias ? `${alias}: ` : ""}${field.name}${passed}${selected}`;
  return {
    query: `${root === "Query" ? "query" : "mutation"}${declared} { ${answer}${also ? ` ${also}` : ""} }`,
    variables: Object.fromEntries(args.map((a) => [a.name, values[a.name]])),
  };
}

/** How long a monitor's representation stays the same before `settle` takes it as final. */
const STEADY_MS = 200;

/**
 * Polls a status monitor (a job) until it is settled, with the admin token; resolves to its last body, or rejects
 * when it still changes after `timeoutMs`. Settled: its representation (its ETag) unchanged for 200 ms or, on a test
 * server of this process (`startServer`), its app's job queue holding no job that waits or runs (`jobsInHand`),
 * which that server is asked every 5 ms.
 *
 * @param base - the server's URL
 * @param url - the monitor's path (a 202's Location)
 * @param timeoutMs - how long it may keep changing, in ms (default 10 000)
 */
export async function settle(base: string, url: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  const app = testServerAt(base)?.app;
  let last: string | undefined;
  let since = 0;
  for (;;) {
    const ended = app !== undefined && (await app.jobsInHand()) === 0;
    const res = await call(`${base}${url}`);
    if (ended) return res.json;
    const tag = res.headers.get("etag") ?? res.text;
    if (tag !== last) [last, since] = [tag, Date.now()];
    else if (Date.now() - since >= STEADY_MS) return res.json;
    if (Date.now() > until) throw new Error(`${url} still changes`);
    await new Promise((r) => setTimeout(r, app ? 5 : 50));
  }
}

/** One live instance of every resource, made over the API (`Spec.newWorld`). */
export interface World {
  /** by id name: one live instance of every resource (owned by `owner` where owned) */
  ids: Record<string, string>;
  /** the id of the first self-owned resource's instance that owns the others ("" when none is self-owned) */
  owner: string;
  /** another instance of that resource: a second owner */
  other: string;
}

const cache = new WeakMap<object, ReturnType<typeof readSpec>>();

/**
 * The kit's reading of an application's specs (read once per definition): its operations, resources, GraphQL schema,
 * sample bodies and schemas, and the means to send an operation and to make a World.
 *
 * @param definition - the application (its `operationSpecs` and `contract`); openapi.yaml and schema.graphql are read from the project's root
 */
export function specOf(definition: TestDefinition) {
  let spec = cache.get(definition);
  if (!spec) cache.set(definition, (spec = readSpec(definition)));
  return spec;
}

function readSpec(definition: TestDefinition) {
  const doc = loadWithParts(projectFile("openapi.yaml"));
  const operations = definition.operationSpecs;
  const { resources, graphqlInputs } = definition.contract;
  const graphqlSchema: GraphQLSchema = buildSchema(loadTypeDefs(undefined, definition.contract));

  /**
   * The node a $ref points at, through any number of $refs.
   *
   * @param node - a node of openapi.yaml (a $ref or not)
   */
  const resolve = (node: unknown): JsonObject => {
    let s = node as JsonObject;
    while (isObject(s) && typeof s.$ref === "string")
      s = s.$ref
        .slice(2)
        .split("/")
        .reduce<any>((n, key) => n[key], doc);
    return s;
  };
  const rawOperation = (op: { path: string; method: string }): JsonObject =>
    resolve((doc.paths as JsonObject)[op.path])[op.method.toLowerCase()] as JsonObject;

  /**
   * The operation's request body example (requestBody content example), with its media type.
   *
   * @param op - the operation
   */
  function sampleBody(op: Operation): { type: string; body: unknown } | undefined {
    const body = resolve(rawOperation(op).requestBody);
    if (!isObject(body) || !isObject(body.content)) return undefined;
    for (const [type, media] of Object.entries(body.content))
      if (isObject(media) && media.example !== undefined) return { type, body: structuredClone(media.example) };
    return undefined;
  }

  /**
   * The request body schema openapi.yaml gives an operation (for its first media type), resolved.
   *
   * @param op - the operation (its path and method)
   */
  function bodySchema(op: { path: string; method: string }): JsonObject | undefined {
    const body = resolve(rawOperation(op).requestBody);
    const first = isObject(body?.content) ? (Object.values(body.content)[0] as JsonObject) : undefined;
    return first?.schema ? resolve(first.schema) : undefined;
  }

  /**
   * A parameter's schema, resolved.
   *
   * @param op - the operation (its path and method)
   * @param name - the parameter's name
   */
  function parameterSchema(op: { path: string; method: string }, name: string): JsonObject | undefined {
    const item = resolve((doc.paths as JsonObject)[op.path]);
    const params = [
      ...((item.parameters as unknown[]) ?? []),
      ...((rawOperation(op).parameters as unknown[]) ?? []),
    ].map(resolve);
    const found = params.find((p) => p.name === name);
    return found?.schema ? resolve(found.schema) : undefined;
  }

  /**
   * The resource (tag and facts) whose id property is `name`.
   *
   * @param name - a parameter or property name ("bookId")
   */
  const resourceOfParam = (name: string): [string, ResourceInfo] | undefined =>
    Object.entries(resources).find(([, r]) => r.id === name);

  /**
   * A value for each argument the field needs: ids by name, else the paired operation's sample body (or its properties).
   *
   * @param root - the root type ("Query", "Mutation")
   * @param field - the root field
   * @param ids - values by id name (a World's `ids`)
   */
  function argumentValues(
    root: string,
    field: GraphQLField<unknown, unknown>,
    ids: Record<string, string>,
  ): Record<string, unknown> {
    const rules = graphqlInputs[`${root}.${field.name}`];
    const op = rules && operations.find((o) => o.operationId === rules.operationId);
    const sample = op ? (bodyWithIds(op, ids) as Record<string, unknown> | undefined) : undefined;
    const values: Record<string, unknown> = {};
    for (const a of field.args) {
      if (a.name in ids) values[a.name] = ids[a.name];
      else if (rules?.body && "arg" in rules.body && rules.body.arg === a.name) values[a.name] = sample;
      else if (sample && a.name in sample) values[a.name] = sample[a.name];
      // A path parameter's argument naming nothing the world made (as urlOf does on REST).
      else if (rules?.path?.args.includes(a.name)) values[a.name] = `${a.name}-unknown`;
    }
    return values;
  }

  /**
   * The sample body with each property named like a resource's id (x-resource) set to the instance `ids` names.
   *
   * @param op - the operation
   * @param ids - values by id name (a World's `ids`)
   */
  function bodyWithIds(op: Operation, ids: Record<string, string>): unknown {
    const sample = sampleBody(op)?.body;
    if (!isObject(sample)) return sample;
    return Object.fromEntries(
      Object.entries(sample).map(([k, v]) => [
        k,
        resourceOfParam(k) && ids[k] && !pathParams(op.path).includes(k) ? ids[k] : v,
      ]),
    );
  }

  /**
   * Sends the operation with its sample body (ids of other resources in it from `ids`), or `body`, to the instances
   * `ids` names; redirects are not followed.
   *
   * @param base - the server's URL
   * @param op - the operation
   * @param ids - values by id name (a World's `ids`): the path's parameters and the ids in the body
   * @param init - `headers` added; `body` sent instead of the sample (JSON-serialized unless a string); `raw` sent as
   *   it is; `token`: the bearer token (default the admin token; null sends none); `expect`: the statuses the step
   *   asks for ("any": whatever is declared, luck that counts for no coverage) and `step` what it is, for the coverage gate
   */
  function send(
    base: string,
    op: Operation,
    ids: Record<string, string>,
    init: {
      headers?: Record<string, string>;
      body?: unknown;
      raw?: string;
      token?: string | null;
      expect?: readonly number[] | "any";
      step?: string;
    } = {},
  ) {
    const sample = sampleBody(op);
    const body = init.raw ?? init.body ?? bodyWithIds(op, ids);
    // fetch writes a form's Content-Type itself: it carries the boundary.
    const form =
      init.raw === undefined && sample?.type === "multipart/form-data" && isObject(body)
        ? formData(op, body)
        : undefined;
    const asked = init.expect ? asking(`${init.step ?? "a step of twinspec-dev/testing"}`, init.expect) : {};
    const headers: Record<string, string> = {
      ...(sample && !form ? { "content-type": sample.type } : {}),
      ...asked,
      ...init.headers,
    };
    if (init.token !== undefined && init.token !== null) headers.authorization = `Bearer ${init.token}`;
    return call(`${base}${urlOf(op, ids)}`, {
      method: op.method,
      body: form ?? (body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)),
      headers,
      anonymous: init.token === null,
      redirect: "manual",
    });
  }

  /**
   * The operation that makes a resource: it answers 201 or 202 with a Location, its body that resource's schema (POST first).
   *
   * @param resource - the resource's tag
   */
  function creatorOf(resource: string): Operation {
    const schema = `#/components/schemas/${resources[resource].schema}`;
    const answersWith = (op: Operation) =>
      Object.entries(rawOperation(op).responses as JsonObject).some(
        ([status, r]) =>
          (status === "201" || status === "202") && JSON.stringify(resolve(r).content ?? {}).includes(`"${schema}"`),
      );
    const found = operations
      .filter(answersWith)
      .sort((a, b) => Number(b.method === "POST") - Number(a.method === "POST"))[0];
    if (!found)
      throw new Error(`no operation of openapi.yaml creates ${resource} (201/202 with ${resources[resource].schema})`);
    return found;
  }

  /**
   * The PUTs that set what a path holds beside the resources: a path that is no resource's own, with a GET and a
   * PUT. The world sets each, so that its GET has something to read.
   */
  const singletonWriters = operations.filter(
    (op) =>
      op.method === "PUT" &&
      !Object.values(resources).some((r) => r.path === op.path) &&
      operations.some((o) => o.method === "GET" && o.path === op.path),
  );

  /** Resources owned by nobody's id but their own: the principals other resources belong to. */
  const principals = Object.keys(resources).filter((r) => resources[r].owner === "self");

  /**
   * One live instance of every resource, made over the API with the admin token: every instance belongs to `owner`
   * (an instance of the self-owned resource), each made with fresh dependencies — what its path or its body names of
   * other resources (a body property named like a resource's id gets a real one, made first) — except that owner.
   * Jobs and other asynchronous results are settled (their representation no longer changes). `other` is a second owner.
   *
   * @param base - the server's URL
   */
  async function newWorld(base: string): Promise<World> {
    const ids: Record<string, string> = {};
    const make = async (resource: string, given: Record<string, string>, making: string[] = []): Promise<string> => {
      if (making.includes(resource))
        throw new Error(`making ${resource} needs a ${resource} first (${making.join(" → ")})`);
      const op = creatorOf(resource);
      const needed: Record<string, string> = { ...given };
      const sample = sampleBody(op)?.body;
      const named = [...pathParams(op.path), ...(isObject(sample) ? Object.keys(sample) : [])].filter(
        (name) => name !== resources[resource].id,
      );
      for (const name of named) {
        if (needed[name]) continue;
        const dependency = resourceOfParam(name);
        if (!dependency) {
          if (pathParams(op.path).includes(name))
            throw new Error(`${op.operationId}: cannot tell which resource ${name} names`);
          continue;
        }
        needed[name] = await make(dependency[0], given, [...making, resource]);
      }
      const res = await send(base, op, needed, {
        expect: [201, 202],
        step: `a world: making ${resource} (${op.operationId})`,
      });
      if (res.status !== 201 && res.status !== 202)
        throw new Error(`making ${resource} with ${op.operationId}: ${res.status} ${res.text}`);
      const location = res.headers.get("location")!;
      if (res.status === 202) await settle(base, location);
      return res.json?.[resources[resource].id] ?? decodeURIComponent(location.split("/").pop()!);
    };
    const owners: Record<string, string> = {};
    for (const principal of principals)
      owners[resources[principal].id] = ids[resources[principal].id] = await make(principal, {});
    for (const resource of Object.keys(resources)) {
      if (!ids[resources[resource].id]) ids[resources[resource].id] = await make(resource, owners);
    }
    for (const op of singletonWriters) {
      const res = await send(base, op, ids, {
        expect: [200, 201, 204],
        step: `a world: setting ${op.path} (${op.operationId})`,
      });
      if (res.status >= 300) throw new Error(`setting ${op.path} with ${op.operationId}: ${res.status} ${res.text}`);
    }
    const other: Record<string, string> = {};
    for (const principal of principals) other[resources[principal].id] = await make(principal, {});
    const ownerId = principals.length ? ids[resources[principals[0]].id] : "";
    const otherId = principals.length ? other[resources[principals[0]].id] : "";
    return { ids, owner: ownerId, other: otherId };
  }

  return {
    /** openapi.yaml, parsed */
    doc,
    /** every operation (`definition.operationSpecs`) */
    operations,
    /** every resource by tag (`definition.contract.resources`) */
    resources,
    /** schema.graphql, built */
    graphqlSchema,
    /** the rules a root field's arguments share with its paired operation (`definition.contract.graphqlInputs`) */
    graphqlInputs,
    principals,
    resolve,
    sampleBody,
    bodySchema,
    parameterSchema,
    bodyWithIds,
    argumentValues,
    resourceOfParam,
    creatorOf,
    send,
    newWorld,
    settle,
    pathParams,
    declares,
    urlOf,
  };
}

/** What `specOf` reads from an application's specs. */
export type Spec = ReturnType<typeof specOf>;

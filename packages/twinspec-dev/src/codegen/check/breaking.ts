// Changes between two versions of a spec that break clients written against the older one. REST: our own walk
// over operations and schemas, input read as "what the server accepts", output as "what the client may rely on".
// GraphQL: graphql-js's own findBreakingChanges / findDangerousChanges.
import { execFileSync } from "node:child_process";
import { buildSchema, findBreakingChanges, findDangerousChanges } from "graphql";
import { parse } from "yaml";
import { deref, isObject, textOf, type Json, type JsonObject } from "../load/spec.js";

export interface Change {
  /** "GET /books/{bookId} response 200 .title", "Book.title" */
  at: string;
  message: string;
  /** breaking: old clients fail; dangerous: old clients may misbehave (e.g. an enum value they do not know) */
  severity: "breaking" | "dangerous";
}

type Mode = "input" | "output";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const LOWER_BOUNDS = ["minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties"];
const UPPER_BOUNDS = ["maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties"];

export function openapiChanges(before: JsonObject, after: JsonObject): Change[] {
  const changes = new Map<string, Change>();
  const add = (at: string, message: string, severity: Change["severity"] = "breaking") =>
    changes.set(`${at}|${message}`, { at, message, severity });
  const seen = new Set<string>();
  const old = (raw: Json, at: string) => deref(before, raw, "before", at);
  const now = (raw: Json, at: string) => deref(after, raw, "after", at);
  const afterOps = operations(after, now);

  for (const [match, op] of operations(before, old)) {
    const key = op.label;
    const next = afterOps.get(match);
    if (!next) {
      add(key, "operation removed");
      continue;
    }
    for (const [name, param] of next.params) {
      const was = op.params.get(name);
      if (param.required === true && was?.required !== true)
        add(`${key} ${name}`, was ? "parameter is now required" : "new required parameter");
      if (was && was.schema !== undefined && param.schema !== undefined)
        compare(was.schema, param.schema, "input", `${key} ${name}`);
    }
    compareRequestBody(op.operation.requestBody, next.operation.requestBody, key);
    const responses = isObject(op.operation.responses) ? op.operation.responses : {};
    const nextResponses = isObject(next.operation.responses) ? next.operation.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      const at = `${key} response ${status}`;
      if (nextResponses[status] === undefined) {
        if (/^2/.test(status)) add(at, "success response removed");
        continue;
      }
      const was = old(raw, at).value;
      const is = now(nextResponses[status], at).value;
      const headers = isObject(was.headers) ? was.headers : {};
      const nextHeaders = isObject(is.headers) ? is.headers : {};
      for (const [name, header] of Object.entries(headers)) {
        const required = (h: Json | undefined, get: typeof old) =>
          h !== undefined && get(h, at).value.required === true;
        if (required(header, old) && !required(nextHeaders[name], now))
          add(`${at} header ${name}`, "header no longer always sent");
      }
      compareContent(was.content, is.content, "output", at);
    }
  }

  const schemas = (doc: JsonObject) =>
    isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const name of Object.keys(schemas(before))) {
    if (!(name in schemas(after)))
      add(`components.schemas.${name}`, "schema removed (typed clients import it by name)");
  }
  return [...changes.values()];

  function compareRequestBody(wasRaw: Json | undefined, isRaw: Json | undefined, key: string) {
    const at = `${key} request body`;
    const is = isRaw === undefined ? undefined : now(isRaw, at).value;
    const was = wasRaw === undefined ? undefined : old(wasRaw, at).value;
    if (is?.required === true && was?.required !== true)
      add(at, was ? "request body is now required" : "new required request body");
    if (was && is) compareContent(was.content, is.content, "input", at);
  }

  function compareContent(was: Json | undefined, is: Json | undefined, mode: Mode, at: string) {
    if (!isObject(was)) return;
    const next = isObject(is) ? is : {};
    for (const [type, media] of Object.entries(was)) {
      const nextMedia = next[type];
      if (nextMedia === undefined) {
        add(at, mode === "input" ? `no longer accepts ${type}` : `no longer answers ${type}`);
        continue;
      }
      if (isObject(media) && isObject(nextMedia) && media.schema !== undefined && nextMedia.schema !== undefined) {
        compare(media.schema, nextMedia.schema, mode, at);
      }
    }
  }

  function compare(wasRaw: Json, isRaw: Json, mode: Mode, where: string) {
    const was = unwrap(wasRaw, old, where);
    const is = unwrap(isRaw, now, where);
    // A named schema is compared once per direction and reported under its own name, not per operation using it.
    const visit = `${was.pointer}|${is.pointer}|${mode}`;
    if (seen.has(visit)) return;
    seen.add(visit);
    const named = was.pointer === is.pointer && was.pointer.startsWith("/components/schemas/");
    const at = named ? `components.schemas.${was.pointer.slice("/components/schemas/".length)}` : where;
    const a = was.value;
    const b = is.value;

    if (mode === "input" && was.nullable && !is.nullable) add(at, "no longer accepts null");
    if (mode === "output" && !was.nullable && is.nullable) add(at, "may now be null");

    const typesA = types(a);
    const typesB = types(b);
    // integer ⊂ number: accepting number where integer was is wider, answering integer where number was is narrower.
    const covers = (set: Set<string> | undefined, t: string) =>
      !set || set.has(t) || (t === "integer" && set.has("number"));
    if (mode === "input" && typesA)
      for (const t of typesA)
        if (!covers(typesB, t)) add(at, `no longer accepts ${t} (now ${[...(typesB ?? [])].join(" | ")})`);
    if (mode === "output" && typesB)
      for (const t of typesB)
        if (!covers(typesA, t)) add(at, `may now be ${t} (was ${[...(typesA ?? [])].join(" | ")})`);

    const enumA = Array.isArray(a.enum) ? a.enum.map(String) : undefined;
    const enumB = Array.isArray(b.enum) ? b.enum.map(String) : undefined;
    if (enumB) for (const v of enumA ?? []) if (!enumB.includes(v)) add(at, `enum value ${v} removed`);
    if (mode === "input" && enumB && !enumA) add(at, `now restricted to ${enumB.join(", ")}`);
    if (mode === "output" && enumA && enumB)
      for (const v of enumB)
        if (!enumA.includes(v)) add(at, `may now be ${v}, a value old clients do not know`, "dangerous");

    if (a.format !== b.format && (mode === "input" ? b.format !== undefined : a.format !== undefined)) {
      add(at, `format ${textOf(a.format ?? "(none)")} → ${textOf(b.format ?? "(none)")}`);
    }
    if (mode === "input") {
      for (const k of LOWER_BOUNDS)
        if (typeof b[k] === "number" && !(typeof a[k] === "number" && a[k] >= b[k]))
          add(at, `narrowed: ${k} ${textOf(a[k] ?? "(none)")} → ${b[k]}`);
      for (const k of UPPER_BOUNDS)
        if (typeof b[k] === "number" && !(typeof a[k] === "number" && a[k] <= b[k]))
          add(at, `narrowed: ${k} ${textOf(a[k] ?? "(none)")} → ${b[k]}`);
      if (b.pattern !== undefined && b.pattern !== a.pattern)
        add(at, `narrowed: pattern ${textOf(a.pattern ?? "(none)")} → ${textOf(b.pattern)}`);
    }

    if (a.items !== undefined && b.items !== undefined) compare(a.items, b.items, mode, `${at}[]`);

    const propsA = isObject(a.properties) ? a.properties : {};
    const propsB = isObject(b.properties) ? b.properties : {};
    const requiredA = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
    const requiredB = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
    for (const [name, prop] of Object.entries(propsA)) {
      const field = `${at} .${name}`;
      if (propsB[name] === undefined) {
        if (mode === "output") add(field, "field removed");
        else if (b.additionalProperties === false) add(field, "field removed (now rejected as unknown)");
        continue;
      }
      if (mode === "output" && requiredA.has(name) && !requiredB.has(name))
        add(field, "may now be missing (no longer required)");
      compare(prop, propsB[name], mode, field);
    }
    if (mode === "input")
      for (const name of requiredB)
        if (!requiredA.has(name))
          add(`${at} .${name}`, propsA[name] === undefined ? "new required field" : "field is now required");
  }
}

interface OperationEntry {
  /** "DELETE /books/{bookId}", as the older spec writes it */
  label: string;
  operation: JsonObject;
  /** "query limit", "header if-match", "path bookId" → the parameter */
  params: Map<string, JsonObject>;
}

/** "GET /books/{}" (path parameters unnamed, so renaming one is no change) → the operation. */
function operations(
  doc: JsonObject,
  get: (raw: Json, at: string) => { value: JsonObject },
): Map<string, OperationEntry> {
  const out = new Map<string, OperationEntry>();
  for (const [path, rawItem] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const item = get(rawItem, path).value;
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      const operation = item[method];
      const key = `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
      const params = new Map<string, JsonObject>();
      for (const raw of [item.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : []))) {
        const p = get(raw, key).value;
        const position = [...path.matchAll(/\{([^}]*)\}/g)].findIndex((m) => m[1] === p.name) + 1;
        const name =
          p.in === "path"
            ? `path parameter #${position}`
            : `${textOf(p.in)} ${p.in === "header" ? textOf(p.name).toLowerCase() : textOf(p.name)}`;
        params.set(name, p);
      }
      out.set(key, { label: `${method.toUpperCase()} ${path}`, operation, params });
    }
  }
  return out;
}

function types(schema: JsonObject): Set<string> | undefined {
  const raw = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const list = raw.map(String).filter((t) => t !== "null");
  if (list.length === 0) return isObject(schema.properties) ? new Set(["object"]) : undefined;
  return new Set(list);
}

/** Resolves $refs and single-branch oneOf/anyOf/allOf, noting whether null is allowed on the way. */
function unwrap(raw: Json, get: (raw: Json, at: string) => { value: JsonObject; pointer: string }, at: string) {
  let { value, pointer } = get(raw, at);
  let nullable = false;
  for (;;) {
    if (value.nullable === true || (Array.isArray(value.type) && value.type.includes("null"))) nullable = true;
    const branches = [value.oneOf, value.anyOf, value.allOf].find((b): b is Json[] => Array.isArray(b));
    if (!branches) return { value, pointer, nullable };
    const rest = branches.filter((b) => !(isObject(b) && b.type === "null"));
    if (rest.length < branches.length) nullable = true;
    if (rest.length !== 1) return { value, pointer, nullable };
    ({ value, pointer } = get(rest[0], at));
  }
}

export function graphqlChanges(before: string, after: string): Change[] {
  const a = buildSchema(before);
  const b = buildSchema(after);
  return [
    ...findBreakingChanges(a, b).map((c) => ({ at: c.type, message: c.description, severity: "breaking" as const })),
    ...findDangerousChanges(a, b).map((c) => ({ at: c.type, message: c.description, severity: "dangerous" as const })),
  ];
}

/** The committed version of a file, or why there is none to compare with. */
export function atHead(file: string, cwd = process.cwd()): { text: string } | { missing: string } {
  try {
    return {
      text: execFileSync("git", ["show", `HEAD:./${file}`], {
        cwd,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    };
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? error)
      .trim()
      .split("\n")[0];
    if (/not a git repository/.test(stderr)) return { missing: "not in a git repository yet" };
    if (
      /does not exist in 'HEAD'|exists on disk, but not in 'HEAD'|invalid object name 'HEAD'|bad revision 'HEAD'/.test(
        stderr,
      )
    )
      return { missing: "not committed yet" };
    return { missing: stderr || "git show failed" };
  }
}

export function parseOpenapi(text: string): JsonObject {
  const doc = parse(text);
  if (!isObject(doc)) throw new Error("the OpenAPI document is not an object");
  return doc;
}

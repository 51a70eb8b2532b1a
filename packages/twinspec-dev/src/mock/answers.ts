// The mock server's REST answers, from openapi.yaml alone.
// Status: the operation's first success (its 204 under `Prefer: return=minimal`), or the declared one
// `Prefer: code=NNN` asks for. Body: the response's example (`Prefer: example=name` picks a named one); else, for
// problem+json, a problem for that status; else a value openapi-sampler generates from the schema (schema examples
// first; formats and patterns honoured). What the request names is echoed where the answer has a property of that
// name: path parameters anywhere in it, body fields at its top level. Headers: their examples, else (required ones)
// samples of their schemas; Location names the resource in the body when there is one.
import { sample, type Options } from "openapi-sampler";
import type { ResourceInfo } from "twinspec/internals";
import { at, deref, escapePointer, isObject, type Json, type JsonObject } from "../codegen/load/spec.js";
import { idsFor } from "twinspec/internals";
import { problem, PROBLEM_TYPE } from "twinspec/internals";
import type { HandlerResponse, OperationSpec } from "twinspec/internals";
import { declaredFor } from "twinspec/internals";
import { badPreference } from "./prefer.js";

const SAMPLING: Options = { skipWriteOnly: true, enablePatterns: true, quiet: true };

export interface MockRequest {
  params: Record<string, unknown>;
  body?: unknown;
}

export type Answer = (op: OperationSpec, prefer: Map<string, string>, request: MockRequest) => HandlerResponse;

/** A value generated from a component schema (its example first), or undefined when openapi.yaml has none so named. */
export function schemaSampler(doc: JsonObject): (name: string) => unknown {
  const cache = new Map<string, unknown>();
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  return (name) => {
    if (!(name in schemas)) return undefined;
    if (!cache.has(name)) cache.set(name, sample({ $ref: `#/components/schemas/${name}` }, SAMPLING, doc));
    return structuredClone(cache.get(name));
  };
}

export function createAnswers(
  doc: JsonObject,
  resources: Readonly<Record<string, ResourceInfo>>,
  file = "openapi.yaml",
): Answer {
  const { location } = idsFor(resources);
  type ResourceTag = string;
  const resolve = (value: Json | undefined, where: string) => deref(doc, value ?? null, file, where).value;
  const resourceOf = (schema: Json | undefined) => {
    const name =
      isObject(schema) && typeof schema.$ref === "string"
        ? schema.$ref.replace("#/components/schemas/", "")
        : undefined;
    return Object.keys(resources).find((tag) => resources[tag].schema === name);
  };

  return (op, prefer, request) => {
    const status = statusFor(op, prefer);
    const where = `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}/responses`;
    const responses = resolve(at(doc, `#${where}`), where);
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses)!;
    const response = resolve(responses[key], `${where}/${key}`);
    const content = isObject(response.content) ? response.content : {};
    const contentType = Object.keys(content).find((t) => t === "application/json") ?? Object.keys(content)[0];
    let body: unknown;
    let tag: ResourceTag | undefined;
    if (contentType && status !== 204 && status !== 304) {
      const media = resolve(content[contentType], `${where}/${key}/content`);
      // A copy: openapi-sampler hands out the document's own examples.
      body =
        bodyOf(media, contentType, status, prefer, op, resolve) ??
        structuredClone(sample((media.schema ?? {}) as never, SAMPLING, doc));
      if (contentType !== PROBLEM_TYPE) echo(body, request);
      tag = resourceOf(media.schema);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(isObject(response.headers) ? response.headers : {})) {
      const header = resolve(value, `${where}/${key}/headers`);
      const given = exampleOf(header);
      if (given === undefined && header.required !== true) continue;
      const id = tag && isObject(body) ? body[resources[tag].id] : undefined;
      headers[name] =
        name.toLowerCase() === "location" && tag && typeof id === "string"
          ? location(tag, id)
          : String(given ?? sample(header.schema as never, SAMPLING, doc));
    }
    return { status, body, headers, contentType: body === undefined ? undefined : contentType };
  };
}

/** The status asked for with `Prefer: code=NNN` (it must be declared), else the first success. */
function statusFor(op: OperationSpec, prefer: Map<string, string>): number {
  const declared = Object.keys(op.responses);
  const code = prefer.get("code");
  if (code !== undefined) {
    if (!/^[1-5]\d\d$/.test(code) || !declaredFor(op.responses, Number(code))) {
      throw badPreference(
        `code=${code} is not a status ${op.operationId} declares; it declares ${declared.join(", ")}`,
      );
    }
    return Number(code);
  }
  const successes = declared
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number)
    .sort((a, b) => a - b);
  if (prefer.get("return") === "minimal" && successes.includes(204)) return 204;
  return successes[0] ?? 200;
}

/** The body the spec gives (an example, or a problem for problem+json); undefined: generate one from the schema. */
function bodyOf(
  media: JsonObject,
  contentType: string,
  status: number,
  prefer: Map<string, string>,
  op: OperationSpec,
  resolve: (value: Json | undefined, where: string) => JsonObject,
): unknown {
  const examples = isObject(media.examples) ? media.examples : undefined;
  const name = prefer.get("example");
  if (name !== undefined) {
    if (!examples || !(name in examples)) {
      throw badPreference(
        `example=${name}: ${op.operationId} ${status} has ${examples ? `the examples ${Object.keys(examples).join(", ")}` : "no named examples"}`,
      );
    }
    return structuredClone(resolve(examples[name], "examples").value);
  }
  if (media.example !== undefined) return structuredClone(media.example);
  const first = examples && Object.values(examples)[0];
  if (first !== undefined) return structuredClone(resolve(first, "examples").value);
  if (contentType === PROBLEM_TYPE) return problem(status, `A mock answer: ${op.operationId} declares ${status}.`);
  return undefined;
}

/** Path parameters wherever a string property of their name stands; body fields the answer's top level also has. */
function echo(body: unknown, { params, body: sent }: MockRequest): void {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === "string" && typeof params[k] === "string") node[k] = params[k];
        else visit(v);
      }
    }
  };
  visit(body);
  if (!isObject(body) || !isObject(sent)) return;
  for (const [k, v] of Object.entries(sent)) {
    if (k in body && v !== null && typeof v === typeof body[k] && Array.isArray(v) === Array.isArray(body[k]))
      body[k] = structuredClone(v);
  }
}

function exampleOf(node: JsonObject): Json | undefined {
  if (node.example !== undefined) return node.example;
  if (isObject(node.examples)) {
    const first = Object.values(node.examples)[0];
    if (isObject(first) && first.value !== undefined) return first.value;
  }
  return isObject(node.schema) ? node.schema.example : undefined;
}

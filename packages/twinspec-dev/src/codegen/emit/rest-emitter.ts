// Emits generated/rest.ts: request/response types per operation, the RestHandlers interface,
// the route table that the runtime mounts, and mountRest().
import { bodyKind } from "twinspec/internals";
import {
  identifier,
  isEventStream,
  prop,
  quote,
  type Operation,
  type Parameter,
  type ResponseSpec,
} from "../model/operations.js";
import { PARAM_LOCATIONS, type OperationValidators } from "./validators.js";

export interface RestEmitOptions {
  /** module specifier of the hand-written runtime, relative to the generated file or a package name */
  runtime: string;
  /** module specifier of openapi-typescript's output, relative to the generated file */
  types: string;
  /** module specifier of the compiled validators */
  validators: string;
  /** the type handlers receive as `ctx` (default: the runtime's RequestContext), like graphql-codegen's contextType */
  context?: { module: string; name: string };
}

/** Type-name stem of an operation: any operationId, made a valid identifier ("get-x" → "GetX"). */
const pascal = (id: string) => {
  const name = identifier(id);
  return name[0].toUpperCase() + name.slice(1);
};
// In an interface, `new(…)` declares a construct signature, not a method named new (gambitcomm.local/mimic.json has
// an operationId "new"): that one name is quoted.
const method = (name: string) => (name === "new" ? quote(name) : prop(name));
const isXml = (type: string) => bodyKind(type) === "text" && type.includes("xml");
const LOCATION_KEY = { path: "params", query: "query", header: "headers", cookie: "cookies" } as const;
/**
 * openapi-typescript's type of the operation; only paths holds those without an operationId. It keys operations by
 * operationId with "#" made "/" (a "#" would end the $ref it makes).
 */
const opType = (op: Operation) =>
  op.derivedId
    ? `paths[${quote(op.path)}][${quote(op.method)}]`
    : `operations[${quote(op.operationId.replace(/#/g, "/"))}]`;

/** A degraded parameter's type: the raw text (a query parameter may repeat). */
const rawParams = (params: Parameter[]) =>
  `{ ${params.map((p) => `${prop(p.name)}${p.required ? "" : "?"}: ${p.in === "query" ? "string | string[]" : "string"}`).join("; ")} }`;

/** A degraded body's type: what the runtime hands over without parsing it as the schema says. */
const rawBodyType = (type: string) =>
  bodyKind(type) === "form"
    ? "Record<string, string | string[]>"
    : bodyKind(type) === "multipart"
      ? "Record<string, string | string[] | UploadedFile | UploadedFile[]>"
      : bodyKind(type) === "bytes"
        ? "Buffer"
        : "string";

function paramsType(op: Operation, location: (typeof PARAM_LOCATIONS)[number]): string {
  const params = op.parameters.filter((p) => p.in === location);
  const raw = params.filter((p) => p.raw);
  const typed = `NonNullable<${opType(op)}["parameters"][${quote(location)}]>`;
  if (params.length === 0) return "Record<string, never>";
  if (raw.length === params.length) return rawParams(raw);
  // A parameter with a default is always there for the handler (the runtime fills it in).
  const defaulted = params.filter((p) => p.default !== undefined).map((p) => quote(p.name));
  const full = defaulted.length ? `${typed} & Required<Pick<${typed}, ${defaulted.join(" | ")}>>` : typed;
  if (raw.length === 0) return full;
  return `Omit<${full}, ${raw.map((p) => quote(p.name)).join(" | ")}> & ${rawParams(raw)}`;
}

function bodyType(op: Operation, type: string): string {
  const body = op.requestBody!;
  const content = `NonNullable<${opType(op)}["requestBody"]>["content"][${quote(type)}]`;
  if (body.raw?.includes(type)) return rawBodyType(type);
  if (bodyKind(type) === "bytes") return "Buffer";
  if (bodyKind(type) === "multipart") {
    const files = (kind: string) =>
      Object.entries(body.multipart ?? {})
        .filter(([, f]) => f.type === kind)
        .map(([name]) => quote(name))
        .join(" | ") || "never";
    return `WithFiles<${content}, ${files("file")}, ${files("files")}>`;
  }
  return content;
}

export function requestType(op: Operation): string {
  const lines = PARAM_LOCATIONS.map((location) => `  ${LOCATION_KEY[location]}: ${paramsType(op, location)};`);
  lines.push("  principal: Principal | null;");
  const head = `{\n${lines.join("\n")}\n}`;
  const body = op.requestBody;
  if (!body) return `export interface ${pascal(op.operationId)}Request ${head}`;
  // One variant per media type, so checking contentType narrows the body.
  const variants = body.contentTypes.map((type) => `{ contentType: ${quote(type)}; body: ${bodyType(op, type)} }`);
  if (!body.required) variants.push("{ contentType: undefined; body: undefined }");
  return `export type ${pascal(op.operationId)}Request = ${head} & (\n${(variants.length ? variants : ["never"]).map((v) => `  | ${v}`).join("\n")}\n);`;
}

function statusType(status: string): string {
  return /^\d{3}$/.test(status) ? status : "number";
}

export function responseVariant(op: Operation, response: ResponseSpec): string {
  const key = /^\d{3}$/.test(response.status) ? response.status : quote(response.status);
  const content = `${opType(op)}["responses"][${key}]["content"]`;
  // Written as the handler gives them: XML as text and binary media types as bytes, whatever the schema describes.
  const typed = response.contentTypes.filter((type) => !isXml(type) && bodyKind(type) !== "bytes");
  const union = [
    ...(typed.length > 0 ? [`${content}[${typed.map(quote).join(" | ")}]`] : []),
    ...(response.contentTypes.some(isXml) ? ["string"] : []),
    ...(response.contentTypes.some((type) => bodyKind(type) === "bytes") ? ["Buffer"] : []),
  ];
  const body = response.contentTypes.length === 0 ? "body?: undefined" : `body: ${union.join(" | ")}`;
  const contentType =
    response.contentTypes.length > 1 ? `; contentType?: ${response.contentTypes.map(quote).join(" | ")}` : "";
  const headers = response.headers.map((h) => `${prop(h.name)}${h.required ? "" : "?"}: string`);
  const headersType =
    headers.length === 0
      ? "headers?: Record<string, string>"
      : `headers${response.headers.some((h) => h.required) ? "" : "?"}: { ${headers.join("; ")} }`;
  return `{ status: ${statusType(response.status)}; ${body}${contentType}; ${headersType} }`;
}

export function responseType(op: Operation): string {
  const variants = op.responses.map((r) => `  | ${responseVariant(op, r)}`);
  return `export type ${pascal(op.operationId)}Response =\n${variants.join("\n")};`;
}

const NONE: OperationValidators = { params: {}, body: {}, responses: {} };

export function routeEntry(op: Operation, validators: OperationValidators = NONE): string {
  const v = (name: string | undefined) => (name ? `validators.${name}` : "undefined");
  const validate = PARAM_LOCATIONS.map((l) => `${l}: ${v(validators.params[l])}`).join(", ");
  const params = op.parameters.map((p) => {
    const shape: Record<string, unknown> = { name: p.name, in: p.in, type: p.type };
    if (p.type === "array" || p.type === "object")
      Object.assign(shape, p.items ? { items: p.items } : { props: p.props }, { style: p.style, explode: p.explode });
    if (p.default !== undefined) shape.default = p.default;
    return JSON.stringify(shape);
  });
  const b = op.requestBody;
  const body = b
    ? `{ required: ${b.required}, contentTypes: ${JSON.stringify(b.contentTypes)}, validate: [${b.contentTypes.map((t) => v(validators.body[t])).join(", ")}]${b.form ? `, form: ${JSON.stringify(b.form)}` : ""}${b.multipart ? `, multipart: ${JSON.stringify(b.multipart)}` : ""} }`
    : "undefined";
  const responses = op.responses.map((r) => {
    const checks = Object.entries(validators.responses[r.status] ?? {}).map(
      ([type, name]) => `${quote(type)}: ${v(name)}`,
    );
    return `${quote(r.status)}: { contentTypes: ${JSON.stringify(r.contentTypes)}, headers: ${JSON.stringify(r.headers)}${checks.length ? `, validate: { ${checks.join(", ")} }` : ""} }`;
  });
  return [
    "  operation({",
    `    operationId: ${quote(op.operationId)},`,
    `    method: ${quote(op.method.toUpperCase())},`,
    `    path: ${quote(op.path)},`,
    `    routePath: ${quote(op.routePath)},`,
    `    parameters: [${params.join(", ")}],`,
    `    validate: { ${validate} },`,
    `    body: ${body},`,
    `    responses: {\n${responses.map((r) => `      ${r},`).join("\n")}\n    },`,
    `    security: ${JSON.stringify(op.security)},`,
    "  }),",
  ].join("\n");
}

/** The Twinspec part an operation is of (x-twinspec-part), if any. */
const partOf = (op: Operation) =>
  typeof op.extensions["x-twinspec-part"] === "string" ? op.extensions["x-twinspec-part"] : undefined;

/** Operations grouped by their first tag ("default" without one): the unit of one handler file. */
function byTag(operations: Operation[]): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const tag = op.tags[0] ?? "default";
    groups.set(tag, [...(groups.get(tag) ?? []), op]);
  }
  return groups;
}

export function emitRest(
  operations: Operation[],
  validators: Map<string, OperationValidators>,
  options: RestEmitOptions,
): string {
  const uploads = operations.some((op) => op.requestBody?.contentTypes.some((type) => bodyKind(type) === "multipart"));
  const signature = (op: Operation) =>
    `${method(op.operationId)}${isEventStream(op) || partOf(op) ? "?" : ""}(req: ${pascal(op.operationId)}Request, ctx: RequestContext): Promise<${pascal(op.operationId)}Response>;`;
  const handlers = operations.map((op) =>
    isEventStream(op)
      ? `  /** served from its paired subscription (${op.extensions["x-graphql"] as string}); a handler given here replaces it */\n  ${signature(op)}`
      : partOf(op)
        ? `  /** served by Twinspec (its part ${partOf(op)}); a handler given here replaces it */\n  ${signature(op)}`
        : `  ${signature(op)}`,
  );
  // A part's operations are the framework's: no handler file implements them.
  const tags = [...byTag(operations.filter((op) => !partOf(op)))].map(
    ([tag, ops]) => `  ${prop(tag)}: Pick<RestHandlers, ${ops.map((op) => quote(op.operationId)).join(" | ")}>;`,
  );
  const context = options.context
    ? [`import type { ${options.context.name} as RequestContext } from ${quote(options.context.module)};`]
    : [];
  return [
    `import type Router from "@koa/router";`,
    `import type { operations, paths } from ${quote(options.types)};`,
    `import { mountOperations, restMiddleware, type OperationSpec, type MountOptions, type RestMiddleware, type Principal${options.context ? "" : ", type RequestContext"}${uploads ? ", type UploadedFile, type WithFiles" : ""} } from ${quote(options.runtime)};`,
    ...context,
    `import validators from ${quote(options.validators)};`,
    "",
    `export type { Principal, RequestContext${uploads ? ", UploadedFile" : ""} };`,
    "",
    ...operations.flatMap((op) => [requestType(op), "", responseType(op), ""]),
    "/** Implement every operation; a missing one is a compile error where the handlers are assembled. */",
    "export interface RestHandlers {",
    ...handlers,
    "}",
    "",
    "/** The handlers of each tag's operations (by first tag): what one handler file implements. */",
    "export interface HandlersByTag {",
    ...tags,
    "}",
    "",
    "export type OperationId = keyof RestHandlers;",
    "",
    "/** Each entry typed on its own: an array literal of thousands of distinct object types costs tsc minutes. */",
    "const operation = (spec: OperationSpec): OperationSpec => spec;",
    "",
    "export const operationSpecs: readonly OperationSpec[] = [",
    ...operations.map((op) => routeEntry(op, validators.get(op.operationId))),
    "];",
    "",
    "/** Registers every path of the spec on the router; operations without a handler answer 501. */",
    "export function mountRest(router: Router, handlers: Partial<RestHandlers>, options: MountOptions = {}): void {",
    "  mountOperations(router, operationSpecs, handlers as Record<string, unknown>, options);",
    "}",
    "",
    "/** The same as one Koa middleware, for apps without @koa/router; unknown paths go to the next middleware; owns(path) says which are its own. */",
    "export function restRoutes(handlers: Partial<RestHandlers>, options: MountOptions = {}): RestMiddleware {",
    "  return restMiddleware(operationSpecs, handlers as Record<string, unknown>, options);",
    "}",
    "",
  ].join("\n");
}

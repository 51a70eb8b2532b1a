// Emits generated/rest.ts: request/response types per operation, the RestHandlers interface,
// the route table that the runtime mounts, and mountRest().
import { identifier, routeParamName, type Operation, type ResponseSpec } from "./operations.js";
import { PARAM_LOCATIONS, validatorName } from "./validators.js";

export interface RestEmitOptions {
  /** module specifier of the hand-written runtime, relative to the generated file */
  runtime: string;
  /** module specifier of openapi-typescript's output, relative to the generated file */
  types: string;
  /** module specifier of the compiled validators */
  validators: string;
}

/** Type-name stem of an operation: any operationId, made a valid identifier ("get-x" → "GetX"). */
export const pascal = (id: string) => {
  const name = identifier(id);
  return name[0].toUpperCase() + name.slice(1);
};
const quote = (s: string) => JSON.stringify(s);
const prop = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name));
const LOCATION_KEY = { path: "params", query: "query", header: "headers", cookie: "cookies" } as const;

export function requestType(op: Operation): string {
  const t = `operations[${quote(op.operationId)}]`;
  const lines = PARAM_LOCATIONS.map((location) => {
    const has = op.parameters.some((p) => p.in === location);
    const type = has ? `NonNullable<${t}["parameters"][${quote(location)}]>` : "Record<string, never>";
    return `  ${LOCATION_KEY[location]}: ${type};`;
  });
  const body = op.requestBody;
  if (body) {
    const content = `NonNullable<${t}["requestBody"]>["content"]`;
    const optional = body.required ? "" : " | undefined";
    lines.push(`  contentType: ${body.contentTypes.map(quote).join(" | ")}${optional};`);
    lines.push(`  body: ${content}[${body.contentTypes.map(quote).join(" | ")}]${optional};`);
  }
  lines.push("  principal: Principal | null;");
  return `export interface ${pascal(op.operationId)}Request {\n${lines.join("\n")}\n}`;
}

function statusType(status: string): string {
  return /^\d{3}$/.test(status) ? status : "number";
}

export function responseVariant(op: Operation, response: ResponseSpec): string {
  const key = /^\d{3}$/.test(response.status) ? response.status : quote(response.status);
  const content = `operations[${quote(op.operationId)}]["responses"][${key}]["content"]`;
  const body = response.contentTypes.length === 0 ? "body?: undefined" : `body: ${content}[${response.contentTypes.map(quote).join(" | ")}]`;
  const contentType = response.contentTypes.length > 1 ? `; contentType?: ${response.contentTypes.map(quote).join(" | ")}` : "";
  const headers = response.headers.map((h) => `${prop(h.name)}${h.required ? "" : "?"}: string`);
  const headersType = headers.length === 0 ? "headers?: Record<string, string>" : `headers${response.headers.some((h) => h.required) ? "" : "?"}: { ${headers.join("; ")} }`;
  return `{ status: ${statusType(response.status)}; ${body}${contentType}; ${headersType} }`;
}

export function responseType(op: Operation): string {
  const variants = op.responses.map((r) => `  | ${responseVariant(op, r)}`);
  return `export type ${pascal(op.operationId)}Response =\n${variants.join("\n")};`;
}

export function routeEntry(op: Operation, validators: Set<string>): string {
  const v = (name: string) => (validators.has(name) ? `validators.${name}` : "undefined");
  const validate = PARAM_LOCATIONS.map((l) => `${l}: ${v(validatorName(op.operationId, l))}`).join(", ");
  const params = op.parameters.map(
    (p) => `{ name: ${quote(p.name)}, in: ${quote(p.in)}, coerce: ${quote(p.coerce)}${p.in === "path" ? `, key: ${quote(routeParamName(p.name))}` : ""} }`,
  );
  const body = op.requestBody
    ? `{ required: ${op.requestBody.required}, contentTypes: ${JSON.stringify(op.requestBody.contentTypes)}, validate: [${op.requestBody.contentTypes
        .map((_, i) => v(validatorName(op.operationId, `body${i}`)))
        .join(", ")}] }`
    : "undefined";
  const responses = op.responses.map(
    (r) => `${quote(r.status)}: { contentTypes: ${JSON.stringify(r.contentTypes)}, headers: ${JSON.stringify(r.headers)} }`,
  );
  return [
    "  {",
    `    operationId: ${quote(op.operationId)},`,
    `    method: ${quote(op.method.toUpperCase())},`,
    `    path: ${quote(op.path)},`,
    `    routePath: ${quote(op.routePath)},`,
    `    parameters: [${params.join(", ")}],`,
    `    validate: { ${validate} },`,
    `    body: ${body},`,
    `    responses: { ${responses.join(", ")} },`,
    `    security: ${JSON.stringify(op.security)},`,
    "  },",
  ].join("\n");
}

export function emitRest(operations: Operation[], validatorNames: string[], options: RestEmitOptions): string {
  const validators = new Set(validatorNames);
  const handlers = operations.map(
    (op) => `  ${prop(op.operationId)}(req: ${pascal(op.operationId)}Request, ctx: RequestContext): Promise<${pascal(op.operationId)}Response>;`,
  );
  return [
    `import type Router from "@koa/router";`,
    `import type { operations } from ${quote(options.types)};`,
    `import { mountOperations, type OperationSpec, type MountOptions, type Principal, type RequestContext } from ${quote(options.runtime)};`,
    `import validators from ${quote(options.validators)};`,
    "",
    "export type { Principal, RequestContext };",
    "",
    ...operations.flatMap((op) => [requestType(op), "", responseType(op), ""]),
    "/** Implement every operation; a missing one is a compile error where the handlers are assembled. */",
    "export interface RestHandlers {",
    ...handlers,
    "}",
    "",
    "export type OperationId = keyof RestHandlers;",
    "",
    "export const operationSpecs: readonly OperationSpec[] = [",
    ...operations.map((op) => routeEntry(op, validators)),
    "];",
    "",
    "/** Registers every path of the spec on the router; operations without a handler answer 501. */",
    "export function mountRest(router: Router, handlers: Partial<RestHandlers>, options: MountOptions = {}): void {",
    "  mountOperations(router, operationSpecs, handlers as Record<string, unknown>, options);",
    "}",
    "",
  ].join("\n");
}

// The runtime behind generated/rest.ts: per path, method dispatch (HEAD, OPTIONS, 405), security hook,
// parameter and body validation, then the handler's returned response written to Koa.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { Principal } from "../auth/principal.js";
import { hasBody, mediaType, readBody } from "./body.js";
import { coerce, type Coercion } from "./params.js";
import { httpError, problem, PROBLEM_TYPE, type FieldError } from "./problem.js";
import { fieldErrors, type Validator } from "./validation.js";

export type { Principal };
type Location = "path" | "query" | "header" | "cookie";

export interface OperationSpec {
  operationId: string;
  method: string;
  path: string;
  routePath: string;
  parameters: { name: string; in: Location; coerce: Coercion; key?: string }[];
  validate: Record<Location, Validator | undefined>;
  body?: { required: boolean; contentTypes: string[]; validate: (Validator | undefined)[] };
  responses: Record<string, { contentTypes: string[]; headers: { name: string; required: boolean }[] }>;
  security: { scheme: string; scopes: string[] }[][];
}

export interface RequestContext {
  requestId: string;
  operationId: string;
}

/** Decides who calls and whether they may; throws an HttpError (401/403) to refuse. */
export type Authorizer = (security: OperationSpec["security"], ctx: Context) => Promise<Principal | null> | Principal | null;

export interface MountOptions {
  authorize?: Authorizer;
  /** request body size limit in bytes (default 1 MiB) */
  bodyLimit?: number;
}

interface HandlerResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}
type Handler = (req: Record<string, unknown>, ctx: RequestContext) => Promise<HandlerResponse>;

const IMPLICIT = ["HEAD", "OPTIONS"];

export function mountOperations(router: Router, specs: readonly OperationSpec[], handlers: Record<string, unknown>, options: MountOptions) {
  const byPath = new Map<string, OperationSpec[]>();
  for (const spec of specs) byPath.set(spec.routePath, [...(byPath.get(spec.routePath) ?? []), spec]);
  for (const [routePath, ops] of byPath) {
    const methods = new Map(ops.map((op) => [op.method, op]));
    if (methods.has("GET") && !methods.has("HEAD")) methods.set("HEAD", methods.get("GET")!);
    const allow = [...new Set([...methods.keys(), "OPTIONS"])].join(", ");
    router.all(routePath, async (ctx) => {
      const op = methods.get(ctx.method);
      if (op) return runOperation(ctx, op, handlers[op.operationId] as Handler | undefined, options);
      ctx.set("Allow", allow);
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        return;
      }
      throw httpError(405, `${ctx.method} is not allowed on ${ops[0].path}; allowed: ${allow}.`, {}, { Allow: allow });
    });
  }
}

export const allowedMethods = (specs: readonly OperationSpec[], path: string) =>
  specs.filter((s) => s.path === path).map((s) => s.method).concat(IMPLICIT);

async function runOperation(ctx: Context, op: OperationSpec, handler: Handler | undefined, options: MountOptions) {
  const principal = options.authorize ? await options.authorize(op.security, ctx) : null;
  const errors: FieldError[] = [];
  const parts: Record<Location, Record<string, unknown>> = { path: {}, query: {}, header: {}, cookie: {} };
  for (const p of op.parameters) {
    const raw =
      p.in === "path" ? ctx.params[p.key ?? p.name]
      : p.in === "query" ? ctx.query[p.name]
      : p.in === "header" ? ctx.get(p.name) || undefined
      : ctx.cookies.get(p.name);
    const value = coerce(raw, p.coerce);
    if (value !== undefined) parts[p.in][p.name] = value;
  }
  for (const location of ["path", "query", "header", "cookie"] as const) {
    const validate = op.validate[location];
    if (validate && !validate(parts[location])) errors.push(...fieldErrors(location, validate.errors));
  }
  let contentType: string | undefined;
  let body: unknown;
  if (op.body) {
    const present = hasBody(ctx);
    if (present) {
      contentType = mediaType(ctx.get("Content-Type"));
      const index = op.body.contentTypes.indexOf(contentType);
      if (index < 0) {
        throw httpError(415, `Content-Type "${contentType || "(none)"}" is not accepted here; send ${op.body.contentTypes.join(" or ")}.`, {}, {
          "Accept-Post": op.body.contentTypes.join(", "),
        });
      }
      body = await readBody(ctx, contentType, options.bodyLimit ?? 1024 * 1024);
      const validate = op.body.validate[index];
      if (validate && !validate(body)) errors.push(...fieldErrors("body", validate.errors));
    } else if (op.body.required) {
      errors.push({ in: "body", pointer: "", message: `a request body (${op.body.contentTypes.join(" or ")}) is required` });
    }
  }
  if (errors.length > 0) {
    throw httpError(400, `The request has ${errors.length} invalid input${errors.length > 1 ? "s" : ""}; see errors.`, {
      type: "urn:twinspec:problem:validation",
      title: "Invalid request",
      errors,
    });
  }
  if (!handler) throw httpError(501, `${op.operationId} (${op.method} ${op.path}) is declared in the spec but not implemented yet.`);
  const request = { params: parts.path, query: parts.query, headers: parts.header, cookies: parts.cookie, body, contentType, principal };
  const response = await handler(request, { requestId: String(ctx.state.requestId ?? ""), operationId: op.operationId });
  writeResponse(ctx, op, response);
}

function writeResponse(ctx: Context, op: OperationSpec, response: HandlerResponse) {
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  if (response.body === undefined) return;
  const declared = op.responses[String(response.status)] ?? op.responses[`${String(response.status)[0]}XX`] ?? op.responses.default;
  const type = response.contentType ?? declared?.contentTypes[0] ?? (response.status >= 400 ? PROBLEM_TYPE : "application/json");
  // Every problem names the request it answers, as thrown ones do.
  ctx.body = type === PROBLEM_TYPE ? { ...(response.body as object), requestId: ctx.state.requestId } : response.body;
  ctx.type = type;
}

export { problem };

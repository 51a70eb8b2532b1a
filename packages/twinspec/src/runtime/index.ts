// The runtime behind generated/rest.ts: per path, method dispatch (HEAD, OPTIONS, 405), the security hook, 406,
// parameter and body validation, then the handler — whose thrown outcomes become the statuses the operation declares
// (mapError) — and conditional requests (304/412), then the response — checked against the spec in development
// and test — written to Koa. Paths are found by a trie, so routing cost does not grow with the spec. It knows
// nothing of the app that mounts it: principals, contexts and error mappings come in through MountOptions.
import type Router from "@koa/router";
import type { Context, Middleware, Next } from "koa";
import { hasBody, isJson, mediaType, readBody, type FormFields } from "./body.js";
import { validationView, type MultipartFields, type UploadedFile, type WithFiles } from "./multipart.js";
import { preferred } from "./negotiation.js";
import { decodeParam, type Location, type ParamSpec, type Query } from "./params.js";
import { createPathMatcher, MalformedPath } from "./path-matcher.js";
import { CONDITIONAL_HEADERS, evaluateRead, parseConditions, type Conditions } from "./preconditions.js";
import {
  answerProblem,
  HttpError,
  httpError,
  problem,
  PROBLEM_TYPE,
  type FieldError,
  type Problem,
} from "./problem.js";
import { answerOf, refusalOf } from "./problems.js";
import { checkResponse, declaredFor, type DeclaredResponse } from "./response-check.js";
import { fieldErrors, type Validator } from "./validation.js";
import { NUL, NUL_REFUSED, paramHoldsNul } from "./text.js";
import { header, setHeaders } from "./headers.js";

export type { Conditions, ParamSpec, Problem, Validator, UploadedFile, WithFiles };

/** Who calls, as an authorizer decided it. Apps pass their own richer type; the runtime needs no more than this. */
export interface Principal {
  /** who it is (a token's `sub`) */
  subject: string;
  /** what it may do (a token's scopes) */
  scopes: ReadonlySet<string>;
}

/** One operation of the spec, as generated/rest.ts declares it (`operationSpecs`): all the runtime knows of it. */
export interface OperationSpec {
  /** the operation's operationId: the key of its handler */
  operationId: string;
  /** its method, upper-case ("GET") */
  method: string;
  /** its path template as the spec writes it ("/books/{bookId}") */
  path: string;
  /** the same in @koa/router's syntax ("/books/:bookId") */
  routePath: string;
  /** its parameters (the path item's and its own) */
  parameters: ParamSpec[];
  /** the compiled validator of each location's parameters as one object (undefined: none there) */
  validate: Record<Location, Validator | undefined>;
  /** its request body: required or not, the media types accepted, a validator per media type (in that order), how form and multipart fields are read */
  body?: {
    required: boolean;
    contentTypes: string[];
    validate: (Validator | undefined)[];
    form?: FormFields;
    multipart?: MultipartFields;
  };
  /** every declared response by status ("200", "4XX", "default"): its media types, headers and body validators */
  responses: Record<string, DeclaredResponse>;
  /** its security requirements: alternatives (any one suffices) of requirements (all of a scheme's scopes); [] = public */
  security: { scheme: string; scopes: string[] }[][];
}

/** What every handler receives besides the request; apps extend it through MountOptions.context. */
export interface RequestContext {
  /** the request's id (`ctx.state.requestId`: on Twinspec's server the client's X-Request-Id when sane, else a new UUID); "" when nothing set one */
  requestId: string;
  /** the operation being answered */
  operationId: string;
  /** the conditional headers the operation declares, parsed (RFC 9110 §13); undefined when none was sent */
  conditions?: Conditions;
}

/** What a handler returns (or a mapped error becomes): the status, headers and body written to the client. */
export interface HandlerResponse {
  /** the status: one the operation declares (checked against the spec in development and test) */
  status: number;
  /** the body: JSON-serialized for a JSON media type, else sent as it is (a Buffer, a string, a stream); none: no body */
  body?: unknown;
  /** response headers by name */
  headers?: Record<string, string>;
  /** the media type; default the one the status declares (the Accept header chooses among several), else JSON (problem+json for 4xx/5xx) */
  contentType?: string;
}

/** Where a request went: for error mappers and hooks around handlers. */
export interface OperationCall {
  /** the operation called */
  operation: OperationSpec;
  /** the raw path parameters */
  pathParams: Record<string, string>;
  /** the validated request as the handler sees it */
  request: Record<string, unknown>;
}

/**
 * Decides who calls and whether they may, from the operation's security requirements (alternatives of
 * requirements, as the spec declares them; [] = public). Runs before the body is read. Throws an HttpError
 * (401 + WWW-Authenticate, 403) to refuse; returns the principal handed to the handler.
 */
export type Authorizer = (
  /** the operation's security requirements (`operation.security`) */
  security: OperationSpec["security"],
  /** the request's Koa context (its Authorization header) */
  ctx: Context,
  /** the operation called */
  operation: OperationSpec,
  /** the raw path parameters (the target's identifiers, for ownership checks) */
  pathParams: Record<string, string>,
) => Promise<Principal | null>;

/** How the REST runtime mounts the spec's operations (`restMiddleware`, `mountOperations`, generated `restRoutes`); every field is optional. */
export interface MountOptions {
  /** decides who calls and whether they may, before the body is read; default none: every operation is public and handlers get a null principal */
  authorize?: Authorizer;
  /** request body size limit in bytes (default 1 MiB) */
  bodyLimit?: number;
  /** check every handler response against the spec (default: on unless NODE_ENV=production) */
  validateResponses?: boolean;
  /**
   * The context handed to handlers: the runtime's own, extended by the app (services, principal, …); default `base`.
   *
   * @param ctx - the request's Koa context
   * @param base - the runtime's context (request id, operationId, conditions)
   * @param principal - what the authorizer returned
   */
  context?: (ctx: Context, base: RequestContext, principal: Principal | null) => RequestContext;
  /**
   * Turns what a handler threw into a response (undefined: unexpected, a masked 500). A status the operation does not
   * declare is a contract bug: logged, and answered 500. 501 (a stub not filled in yet) always passes. Default none:
   * every throw is a 500.
   *
   * @param error - what the handler threw
   * @param call - the operation, its raw path parameters and the validated request
   */
  mapError?: (error: unknown, call: OperationCall) => HandlerResponse | undefined;
  /** runs around each handler call (and its error mapping), e.g. to store and replay answers of Idempotency-Keys; default none */
  around?: Around;
}

/**
 * A hook around handler calls; `appliesTo` (asked once per operation) spares the operations it has nothing to do with.
 *
 * @param call - the operation, its raw path parameters and the validated request
 * @param invoke - calls the handler (and maps what it throws); the hook returns its response, or one of its own
 */
export type Around = ((call: OperationCall, invoke: () => Promise<HandlerResponse>) => Promise<HandlerResponse>) & {
  /**
   * Whether the hook runs around this operation's calls (asked once per operation at mount); default every operation.
   *
   * @param operation - the operation
   */
  appliesTo?: (operation: OperationSpec) => boolean;
};

type Handler = (req: Record<string, unknown>, ctx: RequestContext) => Promise<HandlerResponse>;

interface PathEntry {
  path: string;
  methods: Map<string, Prepared>;
  allow: string;
}

interface Prepared {
  op: OperationSpec;
  /** the parameters, with the lower-case names their headers are read by */
  params: { spec: ParamSpec; header: string }[];
  readsQuery: boolean;
  /** MountOptions.around, when it applies to this operation */
  around?: Around;
  handler?: Handler;
  /** media types of the success (2XX/default) answers: what Accept is checked against (when the operation declares 406) */
  produces: string[];
  /** the conditional headers the operation declares */
  conditional: ReadonlySet<string>;
}

const LOCATIONS: Location[] = ["path", "query", "header", "cookie"];
const NO_QUERY = Object.freeze({});

/** The REST middleware, which also says whether a path is one of the spec's (without answering it). */
export type RestMiddleware = Middleware & {
  /**
   * Whether a path is one of the spec's (whatever the method), without answering it; false for a malformed path.
   *
   * @param path - a request's path, without the query
   */
  owns(path: string): boolean;
};

/**
 * One Koa middleware for every path of the spec; paths it does not know go to `next`. Per request: method dispatch
 * (HEAD from GET, OPTIONS, 405), `authorize`, 406, parameter and body validation (400, 413, 415), the handler,
 * `mapError`, conditional GETs (304, 412) and the response check. Refusals are answered as problem+json.
 *
 * @param specs - every operation (generated/rest.ts's `operationSpecs`)
 * @param handlers - the handler of each operation by operationId: `(req, ctx) => Promise<HandlerResponse>`; an
 *   operation without one answers 501
 * @param options - authorizer, context, error mapping, hook and limits (`MountOptions`); default none
 */
export function restMiddleware(
  specs: readonly OperationSpec[],
  handlers: Record<string, unknown>,
  options: MountOptions = {},
): RestMiddleware {
  const byPath = new Map<string, PathEntry>();
  for (const op of specs) {
    const entry = byPath.get(op.path) ?? { path: op.path, methods: new Map(), allow: "" };
    const produces =
      "406" in op.responses
        ? [
            ...new Set(
              Object.entries(op.responses)
                .filter(([s]) => /^(2|default)/.test(s))
                .flatMap(([, r]) => r.contentTypes),
            ),
          ]
        : [];
    const conditional = new Set(
      CONDITIONAL_HEADERS.filter((h) =>
        op.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === h.toLowerCase()),
      ),
    );
    // Own properties only: an operationId such as "constructor" must not find Object.prototype's.
    const handler = Object.hasOwn(handlers, op.operationId) ? (handlers[op.operationId] as Handler) : undefined;
    const params = op.parameters.map((spec) => ({ spec, header: spec.name.toLowerCase() }));
    const around = options.around && (options.around.appliesTo?.(op) ?? true) ? options.around : undefined;
    entry.methods.set(op.method, {
      op,
      params,
      readsQuery: params.some((p) => p.spec.in === "query"),
      around,
      handler,
      produces,
      conditional,
    });
    byPath.set(op.path, entry);
  }
  for (const entry of byPath.values()) {
    if (entry.methods.has("GET") && !entry.methods.has("HEAD")) entry.methods.set("HEAD", entry.methods.get("GET")!);
    entry.allow = [...new Set([...entry.methods.keys(), "OPTIONS"])].join(", ");
  }
  const matcher = createPathMatcher([...byPath.values()].map((value) => ({ path: value.path, value })));
  const match = matcher;
  const settings = {
    ...options,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    validateResponses: options.validateResponses ?? process.env.NODE_ENV !== "production",
  };

  // Not an async function of its own around dispatch's promise: one async frame fewer on every request.
  const middleware = (ctx: Context, next: Next): Promise<unknown> => {
    try {
      return dispatch(ctx, next).then(undefined, (error) => refused(ctx, error));
    } catch (error) {
      return Promise.resolve(refused(ctx, error));
    }
  };
  // A malformed path is not answered here: the middleware answers it (400) wherever it is mounted.
  const owns = (path: string) => {
    try {
      return match(path) !== undefined;
    } catch {
      return false;
    }
  };
  return Object.assign(middleware, { owns });

  /** The operation's answer, or next's; throws (synchronously, or through the promise) what is refused. */
  function dispatch(ctx: Context, next: Next): Promise<unknown> {
    let found;
    try {
      found = match(ctx.request.path);
    } catch (error) {
      if (error instanceof MalformedPath) throw refusalOf("bad_request", `The path is malformed: ${error.message}.`);
      throw error;
    }
    if (!found) return Promise.resolve(next());
    const entry = found.value;
    const method = ctx.req.method!;
    const prepared = entry.methods.get(method);
    if (prepared) return runOperation(ctx, prepared, found.params, settings);
    ctx.set("Allow", entry.allow);
    if (method === "OPTIONS") {
      ctx.status = 204;
      return Promise.resolve();
    }
    throw refusalOf(
      "method_not_allowed",
      `${method} is not allowed on ${entry.path}; allowed: ${entry.allow}.`,
      {},
      { Allow: entry.allow },
    );
  }
}

/** Refusals are answered here as problem+json, so any Koa app gets them right; crashes go up to the app. */
function refused(ctx: Context, error: unknown): void {
  if (!(error instanceof HttpError)) throw error;
  answerProblem(
    ctx,
    { ...error.problem, ...(ctx.state.requestId ? { requestId: String(ctx.state.requestId) } : {}) },
    error.headers,
  );
}

/**
 * Registers the REST middleware on a router, for every path and method (the router's own routes keep precedence).
 *
 * @param router - the @koa/router to register on
 * @param specs - every operation (generated/rest.ts's `operationSpecs`)
 * @param handlers - the handler of each operation by operationId (an operation without one answers 501)
 * @param options - as `restMiddleware`'s (`MountOptions`)
 */
export function mountOperations(
  router: Router,
  specs: readonly OperationSpec[],
  handlers: Record<string, unknown>,
  options: MountOptions,
) {
  router.all("/{*path}", restMiddleware(specs, handlers, options));
}

type Settings = MountOptions & { bodyLimit: number; validateResponses: boolean };

async function runOperation(ctx: Context, prepared: Prepared, pathParams: Record<string, string>, options: Settings) {
  const { op, handler } = prepared;
  // For logs and metrics (and the tests' per-status coverage): which operation answered, at which route.
  ctx.state.operationId = op.operationId;
  ctx.state.route = op.path;
  // Who may call comes first: before anything about the request is read or reported.
  const principal = options.authorize ? await options.authorize(op.security, ctx, op, pathParams) : null;
  if (prepared.produces.length > 0 && !preferred(header(ctx, "accept"), prepared.produces)) {
    throw refusalOf(
      "not_acceptable",
      `None of the media types this operation answers with (${prepared.produces.join(", ")}) is acceptable.`,
    );
  }
  const errors: FieldError[] = [];
  const parts: Record<Location, Record<string, unknown>> = { path: {}, query: {}, header: {}, cookie: {} };
  // Koa parses the query string on first read: only for operations that have query parameters.
  const query = (prepared.readsQuery ? ctx.request.query : NO_QUERY) as Query;
  for (const { spec: p, header: name } of prepared.params) {
    const raw =
      p.in === "path"
        ? pathParams[p.name]
        : p.in === "query"
          ? query[p.name]
          : p.in === "header"
            ? header(ctx, name)
            : cookie(ctx, p.name);
    const value = decodeParam(p, raw, query);
    if (value !== undefined) parts[p.in][p.name] = value;
  }
  for (const location of LOCATIONS) {
    const validate = op.validate[location];
    if (validate && !validate(parts[location])) errors.push(...fieldErrors(location, validate.errors));
  }
  // U+0000 never reaches a query (text.ts): refused where validation let it through (a JSON parameter's, by its parser).
  for (const p of prepared.params) {
    const pointer = `/${p.spec.name}`;
    if (
      paramHoldsNul(parts[p.spec.in][p.spec.name]) &&
      !errors.some((e) => e.in === p.spec.in && e.pointer === pointer)
    )
      errors.push({ in: p.spec.in, pointer, message: `must not contain ${NUL}: ${NUL_REFUSED}` });
  }
  // Defaults after validation: what is checked is what the client sent.
  for (const p of op.parameters)
    if (p.default !== undefined && !(p.name in parts[p.in])) parts[p.in][p.name] = p.default;
  let contentType: string | undefined;
  let body: unknown;
  if (op.body) {
    if (hasBody(ctx)) {
      contentType = mediaType(ctx.get("Content-Type"));
      const index = op.body.contentTypes.indexOf(contentType);
      if (index < 0) {
        throw refusalOf(
          "unsupported_media_type",
          `Content-Type "${contentType || "(none)"}" is not accepted here; send ${op.body.contentTypes.join(" or ")}.`,
          {},
          {
            [ctx.method === "PATCH" ? "Accept-Patch" : "Accept-Post"]: op.body.contentTypes.join(", "),
          },
        );
      }
      body = await readBody(ctx, contentType, options.bodyLimit, op.body.form, op.body.multipart);
      const validate = op.body.validate[index];
      if (validate && !validate(validationView(body))) errors.push(...fieldErrors("body", validate.errors));
    } else if (op.body.required) {
      errors.push({
        in: "body",
        pointer: "",
        message: `a request body (${op.body.contentTypes.join(" or ")}) is required`,
      });
    }
  }
  if (errors.length > 0) {
    throw refusalOf(
      "validation",
      `The request has ${errors.length} invalid input${errors.length > 1 ? "s" : ""}; see errors.`,
      { errors },
    );
  }
  if (!handler)
    throw refusalOf(
      "unimplemented",
      `${op.operationId} (${op.method} ${op.path}) is declared in the spec but not implemented yet.`,
    );
  const request = {
    params: parts.path,
    query: parts.query,
    headers: parts.header,
    cookies: parts.cookie,
    body,
    contentType,
    principal,
  };
  const conditions = prepared.conditional.size
    ? parseConditions((name) => header(ctx, name.toLowerCase()), prepared.conditional)
    : undefined;
  const base: RequestContext = {
    requestId: String(ctx.state.requestId ?? ""),
    operationId: op.operationId,
    conditions,
  };
  const handlerContext = options.context ? options.context(ctx, base, principal) : base;
  const call: OperationCall = { operation: op, pathParams, request };
  const invoke = async (): Promise<HandlerResponse> => {
    try {
      return await handler(request, handlerContext);
    } catch (error) {
      return mapped(ctx, error, call, options);
    }
  };
  let response = await (prepared.around ? prepared.around(call, invoke) : invoke());
  if (
    conditions &&
    (ctx.req.method === "GET" || ctx.req.method === "HEAD") &&
    response.status >= 200 &&
    response.status < 300
  ) {
    response = afterConditions(op, response, conditions);
  }
  writeResponse(ctx, prepared, response, options);
}

/** What a handler threw, as the response the app maps it to (rethrown when unexpected, or undeclared: a contract bug). */
function mapped(ctx: Context, error: unknown, call: OperationCall, options: Settings): HandlerResponse {
  const op = call.operation;
  const response = options.mapError?.(error, call);
  if (!response) throw error;
  if (response.status !== 501 && !declaredFor(op.responses, response.status)) {
    ctx.state.log?.error(
      { err: error, operationId: op.operationId, status: response.status },
      `contract bug: ${op.operationId} would answer ${response.status}, which the spec does not declare`,
    );
    throw error;
  }
  return response;
}

/** A successful read under If-None-Match / If-Modified-Since (304) or If-Match / If-Unmodified-Since (412). */
function afterConditions(op: OperationSpec, response: HandlerResponse, conditions: Conditions): HandlerResponse {
  const header = (name: string) => Object.entries(response.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
  const outcome = evaluateRead(conditions, header("etag"), header("last-modified"));
  if (outcome === 304) {
    const kept = Object.fromEntries(
      Object.entries(response.headers ?? {}).filter(([k]) =>
        /^(etag|last-modified|cache-control|vary|expires|content-location|date)$/i.test(k),
      ),
    );
    return { status: 304, headers: kept };
  }
  if (outcome === 412 && op.responses["412"]) {
    return answerOf("precondition", "The resource does not match If-Match / If-Unmodified-Since; fetch it again.");
  }
  return response;
}

function cookie(ctx: Context, name: string): string | undefined {
  const value = ctx.cookies.get(name);
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function writeResponse(ctx: Context, { op }: Prepared, response: HandlerResponse, options: Settings) {
  const declared = declaredFor(op.responses, response.status);
  const offered = declared?.contentTypes ?? [];
  const type =
    response.body === undefined
      ? undefined
      : (response.contentType ??
        (offered.length > 1 ? preferred(header(ctx, "accept"), offered) : offered[0]) ??
        (response.status >= 400 ? PROBLEM_TYPE : "application/json"));
  // A stub's 501 is no answer of the contract's: it says the operation is not written yet (mapped() lets it by too).
  if (options.validateResponses && response.status !== 501) {
    const mismatch = checkResponse(op.responses, response, type);
    if (mismatch) {
      const detail = `${op.operationId} answered ${response.status}, which does not match the spec: ${mismatch.detail}`;
      ctx.state.log?.error(
        { operationId: op.operationId, status: response.status, errors: mismatch.errors },
        "response does not match the spec",
      );
      throw refusalOf("response_validation", detail, { errors: mismatch.errors });
    }
  }
  // Koa's response itself rather than ctx's delegates: this runs on every answer.
  const answer = ctx.response;
  answer.status = response.status;
  if (response.headers) setHeaders(ctx, response.headers);
  if (response.body === undefined || response.status === 304) return;
  // Every problem names the request it answers, as thrown ones do.
  const body = type === PROBLEM_TYPE ? { ...(response.body as object), requestId: ctx.state.requestId } : response.body;
  if (isJson(type!) && !Buffer.isBuffer(body)) {
    // Serialized once, here: left an object, Koa would stringify it to know its length (compression looks) and
    // again to send it; and it would send a JSON string as text, and null as "no content". The type first: Koa
    // then does not guess one from the text.
    ctx.res.setHeader("Content-Type", type === "application/json" ? "application/json; charset=utf-8" : type!);
    answer.body = JSON.stringify(body);
    return;
  }
  answer.body = body;
  answer.type = type!;
}

// For authorizers and handlers written against "twinspec/runtime".
export { HttpError, httpError, problem };
export { idsFor } from "./ids.js";

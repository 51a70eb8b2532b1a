// rest-emitter: request/response types, route entries and the whole generated rest.ts text.
import assert from "node:assert/strict";
import ts from "typescript";
import type { Operation, ResponseSpec } from "../../../src/codegen/model/operations.js";
import {
  emitRest,
  requestType,
  responseType,
  responseVariant,
  routeEntry,
} from "../../../src/codegen/emit/rest-emitter.js";
import type { OperationValidators } from "../../../src/codegen/emit/validators.js";

const res = (status: string, contentTypes: string[] = [], headers: ResponseSpec["headers"] = []): ResponseSpec => ({
  status,
  contentTypes,
  headers,
  schemas: Object.fromEntries(contentTypes.map((t) => [t, {}])),
});
const op = (extra: Partial<Operation> = {}): Operation => ({
  operationId: "getThing",
  method: "get",
  path: "/things/{thing-id}",
  routePath: "/things/:thing_id",
  parameters: [],
  responses: [res("200", ["application/json"])],
  security: [],
  tags: [],
  extensions: {},
  ...extra,
});
const thingOp = op({
  parameters: [
    {
      name: "thing-id",
      in: "path",
      required: true,
      schema: { type: "integer" },
      type: "integer",
      style: "simple",
      explode: false,
    },
    {
      name: "ids",
      in: "query",
      required: false,
      schema: {},
      type: "array",
      items: "integer",
      style: "form",
      explode: true,
    },
  ],
  requestBody: { required: true, contentTypes: ["application/json"], schemas: { "application/json": {} } },
  security: [[{ scheme: "bearerAuth", scopes: ["things:read"] }]],
});
const T = 'operations["getThing"]';
const tsErrors = (text: string) =>
  ts
    .transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } })
    .diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));

describe("requestType", () => {
  it("types the locations in use from openapi-typescript, the others as empty, and one variant per body media type", () => {
    assert.equal(
      requestType(thingOp),
      [
        "export type GetThingRequest = {",
        `  params: NonNullable<${T}["parameters"]["path"]>;`,
        `  query: NonNullable<${T}["parameters"]["query"]>;`,
        "  headers: Record<string, never>;",
        "  cookies: Record<string, never>;",
        "  principal: Principal | null;",
        "} & (",
        `  | { contentType: "application/json"; body: NonNullable<${T}["requestBody"]>["content"]["application/json"] }`,
        ");",
      ].join("\n"),
    );
  });

  const bodies: [string, Operation["requestBody"], string[]][] = [
    [
      "optional body with several media types: a variant each, and one without a body",
      { required: false, contentTypes: ["application/json", "text/plain"], schemas: {} },
      [
        `{ contentType: "text/plain"; body: NonNullable<${T}["requestBody"]>["content"]["text/plain"] }`,
        "{ contentType: undefined; body: undefined }",
      ],
    ],
    [
      "binary media types arrive as a Buffer",
      { required: true, contentTypes: ["application/octet-stream"], schemas: {} },
      ['{ contentType: "application/octet-stream"; body: Buffer }'],
    ],
    [
      "multipart/form-data: the schema's type with its file fields as uploaded files",
      {
        required: true,
        contentTypes: ["multipart/form-data"],
        schemas: {},
        multipart: { a: { type: "file" }, b: { type: "files" }, c: { type: "string" }, d: { type: "file" } },
      },
      [
        `{ contentType: "multipart/form-data"; body: WithFiles<NonNullable<${T}["requestBody"]>["content"]["multipart/form-data"], "a" | "d", "b"> }`,
      ],
    ],
    [
      "multipart/form-data without files",
      { required: true, contentTypes: ["multipart/form-data"], schemas: {}, multipart: { c: { type: "string" } } },
      [
        `{ contentType: "multipart/form-data"; body: WithFiles<NonNullable<${T}["requestBody"]>["content"]["multipart/form-data"], never, never> }`,
      ],
    ],
    [
      "degraded bodies: form fields as raw strings, XML and text as text",
      {
        required: true,
        contentTypes: ["application/x-www-form-urlencoded", "application/xml", "text/plain"],
        schemas: {},
        raw: ["application/x-www-form-urlencoded", "application/xml", "text/plain"],
      },
      [
        '{ contentType: "application/x-www-form-urlencoded"; body: Record<string, string | string[]> }',
        '{ contentType: "application/xml"; body: string }',
        '{ contentType: "text/plain"; body: string }',
      ],
    ],
  ];
  for (const [name, requestBody, expected] of bodies) {
    it(name, () => {
      const text = requestType(op({ requestBody }));
      for (const e of expected) assert.ok(text.includes(e), `${e}\n in\n${text}`);
    });
  }

  it("types raw parameters as their text: all of a location, or beside openapi-typescript's others", () => {
    const raw = (name: string, location: "query" | "header", required = false) => ({
      name,
      in: location,
      required,
      schema: {},
      type: "none" as const,
      style: "form" as const,
      explode: true,
      raw: true as const,
    });
    const text = requestType(
      op({
        parameters: [
          { name: "limit", in: "query", required: false, schema: {}, type: "integer", style: "form", explode: true },
          raw("filter", "query"),
          raw("where", "query", true),
          raw("X-Odd", "header"),
        ],
      }),
    );
    assert.ok(
      text.includes(
        `  query: Omit<NonNullable<${T}["parameters"]["query"]>, "filter" | "where"> & { filter?: string | string[]; where: string | string[] };`,
      ),
      text,
    );
    assert.ok(text.includes('  headers: { "X-Odd"?: string };'), text);
  });

  it("names an operationId with '#' as openapi-typescript keys it, with '/'", () => {
    assert.match(
      requestType(op({ operationId: "Api::Models#index", parameters: thingOp.parameters })),
      /operations\["Api::Models\/index"\]\["parameters"\]\["path"\]/,
    );
  });

  it("is an interface without body lines when there is no requestBody", () => {
    const text = requestType(op());
    assert.doesNotMatch(text, /contentType|body:/);
    assert.match(text, /^export interface GetThingRequest \{/);
  });

  it("goes through paths for an operation whose operationId is derived", () => {
    assert.match(
      requestType(op({ derivedId: true, parameters: thingOp.parameters })),
      /params: NonNullable<paths\["\/things\/\{thing-id\}"\]\["get"\]\["parameters"\]\["path"\]>/,
    );
  });
});

describe("responseVariant", () => {
  const R = `${T}["responses"]`;
  const cases: [string, ResponseSpec, string][] = [
    [
      "a literal status with JSON",
      res("200", ["application/json"]),
      `{ status: 200; body: ${R}[200]["content"]["application/json"]; headers?: Record<string, string> }`,
    ],
    ["no content", res("204"), "{ status: 204; body?: undefined; headers?: Record<string, string> }"],
    [
      "default",
      res("default", ["application/problem+json"]),
      `{ status: number; body: ${R}["default"]["content"]["application/problem+json"]; headers?: Record<string, string> }`,
    ],
    ["a status range", res("2XX"), "{ status: number; body?: undefined; headers?: Record<string, string> }"],
    [
      "several media types let the handler choose",
      res("200", ["application/json", "text/csv"]),
      `{ status: 200; body: ${R}[200]["content"]["application/json" | "text/csv"]; contentType?: "application/json" | "text/csv"; headers?: Record<string, string> }`,
    ],
    [
      "a required header makes headers required",
      res(
        "200",
        [],
        [
          { name: "ETag", required: true },
          { name: "Last-Modified", required: false },
        ],
      ),
      '{ status: 200; body?: undefined; headers: { ETag: string; "Last-Modified"?: string } }',
    ],
    [
      "only optional headers keep headers optional",
      res("201", [], [{ name: "Location", required: false }]),
      "{ status: 201; body?: undefined; headers?: { Location?: string } }",
    ],
    [
      "binary media types are answered as bytes",
      res("200", ["image/png", "image/jpeg"]),
      '{ status: 200; body: Buffer; contentType?: "image/png" | "image/jpeg"; headers?: Record<string, string> }',
    ],
    [
      "XML as text, beside JSON's type",
      res("200", ["application/json", "application/xml"]),
      `{ status: 200; body: ${R}[200]["content"]["application/json"] | string; contentType?: "application/json" | "application/xml"; headers?: Record<string, string> }`,
    ],
  ];
  for (const [name, response, expected] of cases)
    it(name, () => assert.equal(responseVariant(op(), response), expected));

  it("responseType is the union of the variants", () => {
    const responses = [res("200"), res("404")];
    assert.equal(
      responseType(op({ responses })),
      ["export type GetThingResponse =", ...responses.map((r) => `  | ${responseVariant(op(), r)}`)].join("\n") + ";",
    );
  });
});

describe("routeEntry", () => {
  /** The entry is an object literal in the generated module; evaluate it against stand-in validators. */
  const evaluate = (text: string, validators: Record<string, unknown>) =>
    new Function("validators", "operation", `return [\n${text}\n][0];`)(validators, (spec: unknown) => spec);
  const pathValidator = () => true;
  const bodyValidator = () => true;
  const resValidator = () => true;
  const names: OperationValidators = {
    params: { path: "getThing_path" },
    body: { "application/json": "shared_body" },
    responses: { "200": { "application/json": "getThing_res200" } },
  };

  it("describes the operation for the runtime, with the validators compiled for it (shared names included)", () => {
    const entry = evaluate(routeEntry(thingOp, names), {
      getThing_path: pathValidator,
      shared_body: bodyValidator,
      getThing_res200: resValidator,
      getThing_query: () => false,
    });
    assert.deepEqual(entry, {
      operationId: "getThing",
      method: "GET",
      path: "/things/{thing-id}",
      routePath: "/things/:thing_id",
      parameters: [
        { name: "thing-id", in: "path", type: "integer" },
        { name: "ids", in: "query", type: "array", items: "integer", style: "form", explode: true },
      ],
      validate: { path: pathValidator, query: undefined, header: undefined, cookie: undefined },
      body: { required: true, contentTypes: ["application/json"], validate: [bodyValidator] },
      responses: {
        "200": { contentTypes: ["application/json"], headers: [], validate: { "application/json": resValidator } },
      },
      security: [[{ scheme: "bearerAuth", scopes: ["things:read"] }]],
    });
  });

  it("has body undefined without a requestBody, keeps response headers, and passes form fields", () => {
    const entry = evaluate(
      routeEntry(op({ responses: [res("default", [], [{ name: "Retry-After", required: true }])] })),
      {},
    );
    assert.equal(entry.body, undefined);
    assert.deepEqual(entry.responses, {
      default: { contentTypes: [], headers: [{ name: "Retry-After", required: true }] },
    });
    const form = { n: { type: "integer" as const } };
    const withForm = evaluate(
      routeEntry(
        op({
          requestBody: { required: false, contentTypes: ["application/x-www-form-urlencoded"], schemas: {}, form },
        }),
      ),
      {},
    );
    assert.deepEqual(withForm.body.form, form);
  });
});

describe("emitRest", () => {
  const other = op({ operationId: "listThings", path: "/things", routePath: "/things" });
  const text = emitRest([thingOp, other], new Map([["getThing", names()]]), {
    runtime: "../rt.js",
    types: "./openapi.js",
    validators: "./validators.cjs",
  });
  function names(): OperationValidators {
    return { params: { path: "getThing_path" }, body: {}, responses: {} };
  }

  it("imports the given module specifiers", () => {
    assert.match(text, /^import type \{ operations, paths \} from "\.\/openapi\.js";$/m);
    assert.match(text, /^import \{ mountOperations, restMiddleware, .* \} from "\.\.\/rt\.js";$/m);
    assert.match(text, /^import validators from "\.\/validators\.cjs";$/m);
  });

  it("declares one handler per operation in RestHandlers", () => {
    const block = /export interface RestHandlers \{\n([\s\S]*?)\n\}/.exec(text)?.[1];
    assert.equal(
      block,
      [
        "  getThing(req: GetThingRequest, ctx: RequestContext): Promise<GetThingResponse>;",
        "  listThings(req: ListThingsRequest, ctx: RequestContext): Promise<ListThingsResponse>;",
      ].join("\n"),
    );
  });

  it("emits the types and a route entry for every operation, mountRest and restRoutes", () => {
    for (const name of ["GetThingRequest", "GetThingResponse", "ListThingsRequest", "ListThingsResponse"]) {
      assert.match(text, new RegExp(`^export (interface|type) ${name}\\b`, "m"), name);
    }
    assert.equal(text.match(/^ {4}operationId: /gm)?.length, 2);
    assert.match(text, /export function mountRest\(router: Router, handlers: Partial<RestHandlers>/);
    assert.match(
      text,
      /export function restRoutes\(handlers: Partial<RestHandlers>, options: MountOptions = \{\}\): RestMiddleware \{/,
    );
    assert.match(text, /^import \{ [^}]*\btype RestMiddleware\b[^}]* \} from "\.\.\/rt\.js";$/m);
    assert.doesNotMatch(text, /from "koa"/);
  });

  it("is syntactically valid TypeScript", () => assert.deepEqual(tsErrors(text), []));
});

describe("emitRest with operationIds that are not identifiers", () => {
  const odd = emitRest(
    [
      op({
        operationId: "get-x.y",
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            schema: { type: "string" },
            type: "string",
            style: "simple",
            explode: false,
          },
        ],
      }),
    ],
    new Map([["get-x.y", { params: { path: "getXY_path" }, body: {}, responses: {} }]]),
    { runtime: "./runtime.js", types: "./openapi.js", validators: "./validators.cjs" },
  );

  it("derives valid type and validator names, and quotes the handler key", () => {
    assert.match(odd, /export interface GetXYRequest \{/);
    assert.match(odd, /"get-x\.y"\(req: GetXYRequest, ctx: RequestContext\): Promise<GetXYResponse>;/);
    assert.match(odd, /path: validators\.getXY_path/);
  });

  it("is syntactically valid TypeScript", () => assert.deepEqual(tsErrors(odd), []));
});

describe("emitRest with an operationId that is a keyword of interfaces", () => {
  const text = emitRest([op({ operationId: "new" })], new Map(), {
    runtime: "./runtime.js",
    types: "./openapi.js",
    validators: "./validators.cjs",
  });

  it("declares a method named new, not a construct signature (gambitcomm.local/mimic.json)", () => {
    const file = ts.createSourceFile("rest.ts", text, ts.ScriptTarget.Latest);
    const handlers = file.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "RestHandlers",
    )!;
    assert.deepEqual(
      handlers.members.map((m) => [
        ts.SyntaxKind[m.kind],
        m.name && ts.isStringLiteral(m.name) ? m.name.text : undefined,
      ]),
      [["MethodSignature", "new"]],
    );
  });
});

describe("emitRest with an event stream paired with a subscription", () => {
  const stream = op({
    operationId: "streamThings",
    responses: [res("200", ["text/event-stream"])],
    extensions: { "x-graphql": "Subscription.thingChanged" },
  });
  const text = emitRest([stream, op()], new Map(), {
    runtime: "./runtime.js",
    types: "./openapi.js",
    validators: "./validators.cjs",
  });

  it("makes its handler optional (Twinspec serves it from the subscription); others stay required", () => {
    const file = ts.createSourceFile("rest.ts", text, ts.ScriptTarget.Latest);
    const handlers = file.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "RestHandlers",
    )!;
    assert.deepEqual(
      handlers.members.map((m) => [m.name?.getText(file), m.questionToken !== undefined]),
      [
        ["streamThings", true],
        ["getThing", false],
      ],
    );
    assert.deepEqual(tsErrors(text), []);
  });
});

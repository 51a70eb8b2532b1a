// rest-emitter: request/response types, route entries and the whole generated rest.ts text.
import assert from "node:assert/strict";
import ts from "typescript";
import type { Operation, ResponseSpec } from "../../src/codegen/operations.js";
import { emitRest, requestType, responseType, responseVariant, routeEntry } from "../../src/codegen/rest-emitter.js";

const op = (extra: Partial<Operation> = {}): Operation => ({
  operationId: "getThing",
  method: "get",
  path: "/things/{thing-id}",
  routePath: "/things/:thing_id",
  parameters: [],
  responses: [{ status: "200", contentTypes: ["application/json"], headers: [] }],
  security: [],
  ...extra,
});
const thingOp = op({
  parameters: [
    { name: "thing-id", in: "path", required: true, schema: { type: "integer" }, coerce: "integer" },
    { name: "verbose", in: "query", required: false, schema: { type: "boolean" }, coerce: "boolean" },
  ],
  requestBody: { required: true, contentTypes: ["application/json"], schemas: { "application/json": {} } },
  security: [[{ scheme: "bearerAuth", scopes: ["things:read"] }]],
});
const T = 'operations["getThing"]';

describe("requestType", () => {
  it("types the locations in use from openapi-typescript, the others as empty, and a required body", () => {
    assert.equal(
      requestType(thingOp),
      [
        "export interface GetThingRequest {",
        `  params: NonNullable<${T}["parameters"]["path"]>;`,
        `  query: NonNullable<${T}["parameters"]["query"]>;`,
        "  headers: Record<string, never>;",
        "  cookies: Record<string, never>;",
        '  contentType: "application/json";',
        `  body: NonNullable<${T}["requestBody"]>["content"]["application/json"];`,
        "  principal: Principal | null;",
        "}",
      ].join("\n"),
    );
  });

  it("makes an optional body with several media types possibly undefined", () => {
    const text = requestType(op({ requestBody: { required: false, contentTypes: ["application/json", "text/plain"], schemas: {} } }));
    assert.ok(text.includes('  contentType: "application/json" | "text/plain" | undefined;'), text);
    assert.ok(text.includes(`  body: NonNullable<${T}["requestBody"]>["content"]["application/json" | "text/plain"] | undefined;`), text);
  });

  it("has no body lines without a requestBody", () => {
    const text = requestType(op());
    assert.doesNotMatch(text, /contentType|body:/);
    assert.match(text, /params: Record<string, never>;/);
  });
});

describe("responseVariant", () => {
  const R = `${T}["responses"]`;
  const cases: [string, ResponseSpec, string][] = [
    ["a literal status with JSON", { status: "200", contentTypes: ["application/json"], headers: [] }, `{ status: 200; body: ${R}[200]["content"]["application/json"]; headers?: Record<string, string> }`],
    ["no content", { status: "204", contentTypes: [], headers: [] }, "{ status: 204; body?: undefined; headers?: Record<string, string> }"],
    ["default", { status: "default", contentTypes: ["application/problem+json"], headers: [] }, `{ status: number; body: ${R}["default"]["content"]["application/problem+json"]; headers?: Record<string, string> }`],
    ["a status range", { status: "2XX", contentTypes: [], headers: [] }, "{ status: number; body?: undefined; headers?: Record<string, string> }"],
    [
      "several media types let the handler choose",
      { status: "200", contentTypes: ["application/json", "text/csv"], headers: [] },
      `{ status: 200; body: ${R}[200]["content"]["application/json" | "text/csv"]; contentType?: "application/json" | "text/csv"; headers?: Record<string, string> }`,
    ],
    [
      "a required header makes headers required",
      { status: "200", contentTypes: [], headers: [{ name: "ETag", required: true }, { name: "Last-Modified", required: false }] },
      '{ status: 200; body?: undefined; headers: { ETag: string; "Last-Modified"?: string } }',
    ],
    [
      "only optional headers keep headers optional",
      { status: "201", contentTypes: [], headers: [{ name: "Location", required: false }] },
      "{ status: 201; body?: undefined; headers?: { Location?: string } }",
    ],
  ];
  for (const [name, response, expected] of cases) it(name, () => assert.equal(responseVariant(op(), response), expected));

  it("responseType is the union of the variants", () => {
    const responses: ResponseSpec[] = [
      { status: "200", contentTypes: [], headers: [] },
      { status: "404", contentTypes: [], headers: [] },
    ];
    assert.equal(
      responseType(op({ responses })),
      ["export type GetThingResponse =", ...responses.map((r) => `  | ${responseVariant(op(), r)}`)].join("\n") + ";",
    );
  });
});

describe("routeEntry", () => {
  /** The entry is an object literal in the generated module; evaluate it against stand-in validators. */
  const evaluate = (text: string, validators: Record<string, unknown>) => new Function("validators", `return [\n${text}\n][0];`)(validators);
  const pathValidator = () => true;
  const bodyValidator = () => true;

  it("describes the operation for the runtime, with validators only for the names compiled", () => {
    const entry = evaluate(routeEntry(thingOp, new Set(["getThing_path", "getThing_body0"])), {
      getThing_path: pathValidator,
      getThing_query: () => false, // exported but not in the set: must not be used
      getThing_body0: bodyValidator,
    });
    assert.deepEqual(entry, {
      operationId: "getThing",
      method: "GET",
      path: "/things/{thing-id}",
      routePath: "/things/:thing_id",
      parameters: [
        { name: "thing-id", in: "path", coerce: "integer", key: "thing_id" },
        { name: "verbose", in: "query", coerce: "boolean" },
      ],
      validate: { path: pathValidator, query: undefined, header: undefined, cookie: undefined },
      body: { required: true, contentTypes: ["application/json"], validate: [bodyValidator] },
      responses: { "200": { contentTypes: ["application/json"], headers: [] } },
      security: [[{ scheme: "bearerAuth", scopes: ["things:read"] }]],
    });
  });

  it("has body undefined without a requestBody and keeps response headers", () => {
    const responses: ResponseSpec[] = [{ status: "default", contentTypes: [], headers: [{ name: "Retry-After", required: true }] }];
    const entry = evaluate(routeEntry(op({ responses }), new Set()), {});
    assert.equal(entry.body, undefined);
    assert.deepEqual(entry.responses, { default: { contentTypes: [], headers: [{ name: "Retry-After", required: true }] } });
  });
});

describe("emitRest", () => {
  const other = op({ operationId: "listThings", path: "/things", routePath: "/things" });
  const text = emitRest([thingOp, other], ["getThing_path", "getThing_body0"], { runtime: "../rt.js", types: "./openapi.js", validators: "./validators.cjs" });

  it("imports the given module specifiers", () => {
    assert.match(text, /^import type \{ operations \} from "\.\/openapi\.js";$/m);
    assert.match(text, /^import \{ mountOperations, .* \} from "\.\.\/rt\.js";$/m);
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

  it("emits the types and a route entry for every operation", () => {
    for (const name of ["GetThingRequest", "GetThingResponse", "ListThingsRequest", "ListThingsResponse"]) {
      assert.match(text, new RegExp(`^export (interface|type) ${name}\\b`, "m"), name);
    }
    assert.equal(text.match(/^ {4}operationId: /gm)?.length, 2);
    assert.match(text, /export function mountRest\(router: Router, handlers: Partial<RestHandlers>/);
  });

  it("is syntactically valid TypeScript", () => {
    const out = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    assert.deepEqual(out.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")), []);
  });
});

describe("emitRest with operationIds that are not identifiers", () => {
  const odd = emitRest([op({ operationId: "get-x.y", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" }, coerce: "string" }] })], ["getXY_path"], {
    runtime: "./runtime.js",
    types: "./openapi.js",
    validators: "./validators.cjs",
  });

  it("derives valid type and validator names, and quotes the handler key", () => {
    assert.match(odd, /export interface GetXYRequest \{/);
    assert.match(odd, /"get-x\.y"\(req: GetXYRequest, ctx: RequestContext\): Promise<GetXYResponse>;/);
    assert.match(odd, /path: validators\.getXY_path/);
  });

  it("is syntactically valid TypeScript", () => {
    const out = ts.transpileModule(odd, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    assert.deepEqual(out.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")), []);
  });
});

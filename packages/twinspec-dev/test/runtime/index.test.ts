// The generated wiring of a document we did not shape around our own service (test/fixtures/coverage/coverage.yaml,
// generated into test/golden/coverage/), served over real HTTP: parameter styles and coercion, media types,
// routing, 405/406/415/413, the security hook, and response validation.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { restRoutes, type RestHandlers } from "../golden/coverage/rest.js";
import { problemErrors } from "../../../twinspec/src/http/errors.js";
import { httpError } from "../../../twinspec/src/runtime/problem.js";
import {
  restMiddleware,
  type Authorizer,
  type MountOptions,
  type OperationSpec,
  type Principal,
} from "../../../twinspec/src/runtime/index.js";
import { requestId } from "../../../twinspec/src/http/request-id.js";
import { createLogger } from "../../../twinspec/src/logger.js";

/** fetch + JSON (own helper: exactly the headers given, no default credentials). */
async function call(url: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const res = await fetch(url, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const UUID = "7d444840-9dc0-11d1-b245-5ffdce74fad2";
const widget = { id: 5, name: "w" };

const handlers: RestHandlers = {
  async listWidgets(req) {
    return { status: 200, body: { query: req.query, headers: req.headers, cookies: req.cookies } };
  },
  async createWidget(req) {
    const body = req.contentType === "text/plain" ? { text: req.body } : req.body;
    if (typeof body === "object" && body && "name" in body && body.name === "no-location")
      return { status: 201, body: { id: 1, name: "x" } } as never;
    return { status: 201, body: { id: 1, name: "x", ...body }, headers: { Location: "/widgets/1" } } as never;
  },
  async getWidgetsMine() {
    return { status: 200, body: "mine" };
  },
  async "get-widget.v2"(req) {
    if (req.params.id === 404) return { status: 404, body: { type: "about:blank", title: "Not Found", status: 404 } };
    if (req.params.id === 3) return { status: 200, body: widget } as never; // no ETag: the spec requires one
    return { status: 200, body: widget, headers: { ETag: '"v1"' } };
  },
  async patchWidget(req) {
    return { status: 200, body: { ...widget, name: req.body.name ?? widget.name } };
  },
  async deleteWidgetsById() {
    return { status: 204 };
  },
  async getFilesByNameExt(req) {
    return { status: 200, body: req.params };
  },
  async addPet(req) {
    return { status: 200, body: req.body };
  },
  async createUser(req) {
    const { password, ...rest } = req.body;
    // openapi-typescript's types do not model writeOnly (password is "required" in the answer too): the runtime does.
    return {
      status: 201,
      body: { ...rest, id: UUID, ...(req.body.email === "leak@example.com" ? { password } : {}) },
    } as never;
  },
};

/** A stand-in for the Auth issue's authorizer: "Bearer ok" passes, "Bearer no" is forbidden, none is 401. */
const calls: { operationId: string; security: unknown }[] = [];
const authorize: Authorizer = async (security, ctx, op) => {
  calls.push({ operationId: op.operationId, security });
  if (security.length === 0) return null;
  const auth = ctx.get("Authorization");
  if (!auth) throw httpError(401, "Credentials are required.", {}, { "WWW-Authenticate": "Bearer" });
  if (auth !== "Bearer ok") throw httpError(403, "Not allowed.");
  return {
    subject: "u1",
    scopes: new Set(security[0]?.[0]?.scopes ?? []),
    expiresAt: Date.now() / 1000 + 60,
  } as Principal;
};

async function serve(options: MountOptions) {
  const koa = new Koa();
  koa.silent = true;
  koa.use(requestId(createLogger("silent")));
  koa.use(problemErrors());
  koa.use(restRoutes(handlers, options));
  const handle = koa.callback();
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("generated wiring for any document (coverage.yaml over HTTP)", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  let loose: Awaited<ReturnType<typeof serve>>;
  const ok = { Authorization: "Bearer ok" };
  before(async () => {
    s = await serve({ authorize, bodyLimit: 300, validateResponses: true });
    loose = await serve({ authorize, validateResponses: false });
  });
  after(async () => {
    await s.close();
    await loose.close();
  });

  it("coerces query, header and cookie values by style and schema (arrays, deepObject, explode off, number|integer)", async () => {
    const res = await call(
      `${s.url}/widgets?ids=1&ids=2&tags=a,b&filter[min]=3&filter[active]=true&page[size]=4.5&limit=2.5&sort=name`,
      {
        headers: { "X-Flags": "true, false", "X-Trace-Id": UUID, Cookie: "session=7" },
      },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, {
      query: {
        ids: [1, 2],
        tags: ["a", "b"],
        filter: { min: 3, active: true },
        "page[size]": 4.5,
        limit: 2.5,
        sort: "name",
      },
      headers: { "X-Flags": [true, false], "X-Trace-Id": UUID },
      cookies: { session: 7 },
    });
  });

  const invalid: [string, string, RequestInit, string[]][] = [
    [
      "the operation's own limit (≤ 10) overrides the path-level one (≤ 100)",
      "/widgets?limit=50",
      {},
      ["query /limit"],
    ],
    ["an array item that is not an integer", "/widgets?ids=1&ids=x", {}, ["query /ids/1"]],
    ["a deepObject field of the wrong type", "/widgets?filter[min]=low", {}, ["query /filter/min"]],
    ["a header that is not a uuid", "/widgets", { headers: { "X-Trace-Id": "nope" } }, ["header /X-Trace-Id"]],
    ["a cookie that is not an integer", "/widgets", { headers: { Cookie: "session=abc" } }, ["cookie /session"]],
    ["an enum path parameter inside a segment", "/files/report.pdf", {}, ["path /ext"]],
    ["a path integer below its minimum", "/widgets/0", { headers: ok }, ["path /id"]],
  ];
  for (const [name, path, init, where] of invalid) {
    it(`400 for ${name}`, async () => {
      const res = await call(`${s.url}${path}`, init);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.deepEqual(
        res.json.errors.map((e: { in: string; pointer: string }) => `${e.in} ${e.pointer}`),
        where,
      );
    });
  }

  it("a static path wins over a parameter path", async () => {
    const res = await call(`${s.url}/widgets/mine`);
    assert.deepEqual(
      [res.status, res.text, res.headers.get("content-type")],
      [200, "mine", "text/plain; charset=utf-8"],
    );
  });

  it("several parameters in one segment", async () => {
    const res = await call(`${s.url}/files/my%20report.csv`);
    assert.deepEqual([res.status, res.json], [200, { name: "my report", ext: "csv" }]);
  });

  it("malformed percent-encoding in the path → 400", async () => {
    assert.equal((await call(`${s.url}/files/%E0%A4%A.txt`)).status, 400);
  });

  const bodies: [string, string, string, number, unknown][] = [
    [
      "JSON",
      "application/json",
      '{"name":"a","price":{"amount":5,"currency":"EUR"}}',
      201,
      { id: 1, name: "a", price: { amount: 5, currency: "EUR" } },
    ],
    [
      "form-urlencoded, fields coerced by the schema",
      "application/x-www-form-urlencoded",
      "name=b&sizes=1&sizes=2&gift=true",
      201,
      { id: 1, name: "b", sizes: [1, 2], gift: true },
    ],
    ["text", "text/plain; charset=utf-8", "hello", 201, { id: 1, name: "x", text: "hello" }],
  ];
  for (const [name, type, body, status, expected] of bodies) {
    it(`accepts a ${name} body`, async () => {
      const res = await call(`${s.url}/widgets`, { method: "POST", headers: { ...ok, "Content-Type": type }, body });
      assert.deepEqual([res.status, res.json, res.headers.get("location")], [status, expected, "/widgets/1"], res.text);
    });
  }

  const refused: [string, Record<string, string>, string, number, RegExp][] = [
    [
      "an unknown field (unevaluatedProperties)",
      { "Content-Type": "application/json" },
      '{"name":"a","color":"red"}',
      400,
      /color/,
    ],
    [
      "a field of an external $ref'd schema",
      { "Content-Type": "application/json" },
      '{"name":"a","price":{"amount":-1,"currency":"EUR"}}',
      400,
      /\/price\/amount/,
    ],
    ["malformed JSON", { "Content-Type": "application/json" }, '{"name":', 400, /malformed JSON/],
    [
      "a media type the operation does not take (415 + Accept-Post)",
      { "Content-Type": "application/xml" },
      "<a/>",
      415,
      /application\/json or application\/x-www-form-urlencoded or text\/plain/,
    ],
    [
      "a body over the configured limit (413)",
      { "Content-Type": "text/plain" },
      "x".repeat(301),
      413,
      /limit of 300 bytes/,
    ],
    [
      "a text body over its maxLength",
      { "Content-Type": "text/plain" },
      "x".repeat(51),
      400,
      /must NOT have more than 50 characters/,
    ],
  ];
  for (const [name, headers, body, status, detail] of refused) {
    it(`${status} for ${name}`, async () => {
      const res = await call(`${s.url}/widgets`, { method: "POST", headers: { ...ok, ...headers }, body });
      assert.equal(res.status, status, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.match(res.text, detail);
      if (status === 415)
        assert.equal(res.headers.get("accept-post"), "application/json, application/x-www-form-urlencoded, text/plain");
    });
  }

  it("merge-patch bodies, with null to remove a field", async () => {
    const res = await call(`${s.url}/widgets/5`, {
      method: "PATCH",
      headers: { ...ok, "Content-Type": "application/merge-patch+json" },
      body: '{"price":null}',
    });
    assert.equal(res.status, 200, res.text);
  });

  it("discriminator: the branch the property names is checked, and an unknown value is named", async () => {
    const cat = await call(`${s.url}/pets`, { method: "POST", json: { kind: "Cat" } });
    assert.deepEqual(cat.json.errors, [{ in: "body", pointer: "/lives", message: "is required" }]);
    const cow = await call(`${s.url}/pets`, { method: "POST", json: { kind: "Cow" } });
    assert.deepEqual(
      cow.json.errors.map((e: { pointer: string }) => e.pointer),
      ["/kind"],
    );
    assert.equal((await call(`${s.url}/pets`, { method: "POST", json: { kind: "Dog", good: true } })).status, 200);
  });

  it("readOnly fields are refused in requests; formats are checked", async () => {
    const res = await call(`${s.url}/users`, {
      method: "POST",
      json: { id: UUID, email: "no", password: "longenough", homepage: "::", born: "today" },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.json.errors.map((e: { pointer: string; message: string }) => `${e.pointer} ${e.message}`).sort(),
      [
        '/born must match format "date-time"',
        '/email must match format "email"',
        '/homepage must match format "uri"',
        "/id is read-only and cannot be sent",
      ],
    );
    const created = await call(`${s.url}/users`, {
      method: "POST",
      json: { email: "a@example.com", password: "longenough", nickname: null },
    });
    assert.deepEqual([created.status, created.json], [201, { id: UUID, email: "a@example.com", nickname: null }]);
  });

  describe("method semantics", () => {
    it("405 + Allow for a method the path lacks; OPTIONS 204 + Allow", async () => {
      const res = await call(`${s.url}/widgets/mine`, { method: "DELETE" });
      assert.deepEqual(
        [res.status, res.headers.get("allow"), res.headers.get("content-type")],
        [405, "GET, HEAD, OPTIONS", "application/problem+json"],
      );
      const options = await call(`${s.url}/widgets/7`, { method: "OPTIONS" });
      assert.deepEqual([options.status, options.headers.get("allow")], [204, "GET, DELETE, PATCH, HEAD, OPTIONS"]);
    });

    it("HEAD answers like GET with Content-Length and no body", async () => {
      const get = await call(`${s.url}/widgets/5`, { headers: ok });
      const head = await call(`${s.url}/widgets/5`, { method: "HEAD", headers: ok });
      assert.deepEqual(
        [head.status, head.text, head.headers.get("etag"), head.headers.get("content-length")],
        [200, "", '"v1"', String(Buffer.byteLength(get.text))],
      );
    });

    const accepts: [string, number, string | null][] = [
      ["application/xml", 406, "application/problem+json"],
      ["text/csv", 200, "text/csv; charset=utf-8"],
      ["text/*;q=0.5, application/json", 200, "application/json; charset=utf-8"],
      ["application/json;q=0, text/csv;q=0.1", 200, "text/csv; charset=utf-8"],
      ["*/*", 200, "application/json; charset=utf-8"],
    ];
    for (const [accept, status, type] of accepts) {
      it(`Accept: ${accept} → ${status} ${type}`, async () => {
        const res = await call(`${s.url}/widgets/5`, { headers: { ...ok, Accept: accept } });
        assert.deepEqual([res.status, res.headers.get("content-type")], [status, type], res.text);
      });
    }

    it("an operation that does not declare 406 ignores Accept and answers its own media type (RFC 9110 §12.5.1)", async () => {
      const res = await call(`${s.url}/files/a.txt`, { headers: { Accept: "application/xml" } });
      assert.deepEqual(
        [res.status, res.headers.get("content-type")],
        [200, "application/json; charset=utf-8"],
        res.text,
      );
    });

    it("an operation with no success body is never 406", async () => {
      assert.equal(
        (await call(`${s.url}/widgets/5`, { method: "DELETE", headers: { ...ok, Accept: "image/png" } })).status,
        204,
      );
    });

    it("an unknown path goes to the next middleware", async () => {
      assert.equal((await call(`${s.url}/nothing/here`)).status, 404);
    });
  });

  describe("security hook", () => {
    beforeEach(() => (calls.length = 0));

    it("hands the operation's requirements (schemes and scopes) to the authorizer; [] for public ones", async () => {
      await call(`${s.url}/widgets/5`, { headers: ok });
      await call(`${s.url}/widgets`);
      assert.deepEqual(calls, [
        { operationId: "get-widget.v2", security: [[{ scheme: "bearer", scopes: ["widgets:read"] }]] },
        { operationId: "listWidgets", security: [] },
      ]);
    });

    it("401 + WWW-Authenticate before the body is read or validated (malformed, oversized, wrong type)", async () => {
      for (const [type, body] of [
        ["application/json", "{nope"],
        ["text/plain", "x".repeat(1000)],
        ["application/xml", "<a/>"],
      ]) {
        const res = await call(`${s.url}/widgets`, { method: "POST", headers: { "Content-Type": type }, body });
        assert.deepEqual([res.status, res.headers.get("www-authenticate")], [401, "Bearer"], res.text);
      }
    });

    it("403 for credentials that are not allowed, before parameters are validated", async () => {
      const res = await call(`${s.url}/widgets/0`, { headers: { Authorization: "Bearer no" } });
      assert.equal(res.status, 403);
    });
  });

  describe("response validation", () => {
    const mismatches: [string, string, RequestInit, RegExp][] = [
      [
        "a required header missing",
        "/widgets",
        { method: "POST", headers: { ...ok, "Content-Type": "application/json" }, body: '{"name":"no-location"}' },
        /createWidget answered 201.*header\/Location is required/,
      ],
      [
        "a required header missing (GET)",
        "/widgets/3",
        { headers: ok },
        /get-widget\.v2 answered 200.*header\/ETag is required/,
      ],
      [
        "a writeOnly field answered",
        "/users",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"email":"leak@example.com","password":"longenough"}',
        },
        /createUser answered 201.*body\/password is write-only/,
      ],
    ];
    for (const [name, path, init, detail] of mismatches) {
      it(`500 naming operation, status and field: ${name}`, async () => {
        const res = await call(`${s.url}${path}`, init);
        assert.equal(res.status, 500, res.text);
        assert.equal(res.json.type, "urn:twinspec:problem:response-validation");
        assert.match(res.json.detail, detail);
        const off = await call(`${loose.url}${path}`, init);
        assert.ok(off.status < 300, `with validation off the response passes (${off.status})`);
      });
    }
  });
});

// Handler lookup by operationId, whatever the spec names its operations.
const spec = (operationId: string, path: string): OperationSpec => ({
  operationId,
  method: "GET",
  path,
  routePath: path,
  parameters: [],
  validate: { path: undefined, query: undefined, header: undefined, cookie: undefined },
  responses: { "200": { contentTypes: ["application/json"], headers: [] } },
  security: [],
});

describe("restMiddleware: handlers by operationId", () => {
  it("finds only the handlers given: an operationId such as constructor or toString without one answers 501", async () => {
    const app = new Koa();
    app.use(
      restMiddleware([spec("constructor", "/a"), spec("toString", "/b"), spec("hasOwnProperty", "/c")], {
        hasOwnProperty: async () => ({ status: 200, body: { ok: true } }),
      }),
    );
    const handle = app.callback();
    const server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const statuses = await Promise.all(["/a", "/b", "/c"].map(async (p) => (await fetch(base + p)).status));
      assert.deepEqual(statuses, [501, 501, 200]);
    } finally {
      server.close();
    }
  });
});

describe("restMiddleware: a stub's 501", () => {
  it("passes response validation (mapError's 501 is the stub's, not a contract bug); another undeclared status does not", async () => {
    const app = new Koa();
    app.use(problemErrors());
    const notYet = Object.assign(new Error("not yet"), { notYet: true });
    app.use(
      restMiddleware(
        [spec("stub", "/stub"), spec("wrong", "/wrong")],
        { stub: async () => Promise.reject(notYet), wrong: async () => ({ status: 418, body: {} }) },
        {
          validateResponses: true,
          mapError: (error) =>
            (error as { notYet?: boolean }).notYet
              ? {
                  status: 501,
                  body: { type: "urn:twinspec:problem:not-implemented", title: "Not Implemented", status: 501 },
                }
              : undefined,
        },
      ),
    );
    const handle = app.callback();
    const server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      assert.deepEqual(
        await Promise.all(["/stub", "/wrong"].map(async (p) => (await fetch(base + p)).status)),
        [501, 500],
      );
    } finally {
      server.close();
    }
  });
});

describe("restMiddleware: parameter defaults", () => {
  it("a query parameter the request lacks reaches the handler as its schema's default; a sent one is validated as sent", async () => {
    const validate = Object.assign(
      (query: Record<string, unknown>) =>
        query.limit === undefined || (Number.isInteger(query.limit) && (query.limit as number) <= 100),
      {
        errors: [{ instancePath: "/limit", message: "must be <= 100", keyword: "maximum", params: {}, schemaPath: "" }],
      },
    );
    const op: OperationSpec = {
      ...spec("list", "/list"),
      parameters: [{ name: "limit", in: "query", type: "integer", default: 20 }],
      validate: { path: undefined, query: validate as never, header: undefined, cookie: undefined },
    };
    const app = new Koa();
    app.use(problemErrors());
    app.use(
      restMiddleware([op], {
        list: async (req: { query: Record<string, unknown> }) => ({ status: 200, body: req.query }),
      }),
    );
    const handle = app.callback();
    const server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      assert.deepEqual(await (await fetch(`${base}/list`)).json(), { limit: 20 });
      assert.deepEqual(await (await fetch(`${base}/list?limit=5`)).json(), { limit: 5 });
      assert.equal((await fetch(`${base}/list?limit=500`)).status, 400);
    } finally {
      server.close();
    }
  });
});

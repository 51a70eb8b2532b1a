// Method semantics on every path of openapi.yaml, driven by the generated route table (not by example).
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa from "koa";
import { mountRest, operationSpecs } from "../../generated/rest.js";
import { problemErrors } from "../../packages/twinspec/src/http/errors.js";
import { call, startServer, type TestServer } from "../support/server.js";

const ALL = ["GET", "PUT", "POST", "DELETE", "PATCH"];
const paths = [...new Set(operationSpecs.map((op) => op.path))];
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "cus_unknown1");

describe("REST method semantics (every path of the spec)", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  for (const path of paths) {
    const declared = operationSpecs.filter((op) => op.path === path).map((op) => op.method);
    const allow = [...declared, ...(declared.includes("GET") ? ["HEAD"] : []), "OPTIONS"];

    it(`${path}: OPTIONS → 204 + Allow: ${allow.join(", ")}`, async () => {
      const res = await call(`${s.url}${concrete(path)}`, { method: "OPTIONS" });
      assert.equal(res.status, 204);
      assert.deepEqual(res.headers.get("allow")!.split(", ").sort(), [...allow].sort());
    });

    for (const method of ALL.filter((m) => !declared.includes(m))) {
      it(`${path}: ${method} → 405 problem + Allow`, async () => {
        const res = await call(`${s.url}${concrete(path)}`, { method });
        assert.equal(res.status, 405);
        assert.equal(res.headers.get("content-type"), "application/problem+json");
        assert.deepEqual(res.headers.get("allow")!.split(", ").sort(), [...allow].sort());
      });
    }

    if (declared.includes("GET")) {
      it(`${path}: HEAD answers as GET does (status, headers, Content-Length) without a body`, async () => {
        const get = await call(`${s.url}${concrete(path)}`);
        const head = await call(`${s.url}${concrete(path)}`, { method: "HEAD" });
        assert.deepEqual([head.status, head.text], [get.status, ""]);
        assert.equal(head.headers.get("content-type"), get.headers.get("content-type"));
        assert.equal(head.headers.get("content-length"), String(Buffer.byteLength(get.text)));
      });
    }

    for (const op of operationSpecs.filter((o) => o.path === path)) {
      const produces = Object.entries(op.responses)
        .filter(([status]) => /^(2|default)/.test(status))
        .flatMap(([, r]) => r.contentTypes);
      if (produces.length > 0) {
        it(`${path}: ${op.method} with Accept: application/xml → 406 problem`, async () => {
          const res = await call(`${s.url}${concrete(path)}`, {
            method: op.method,
            headers: { Accept: "application/xml" },
          });
          assert.equal(res.status, 406, res.text);
          assert.equal(res.headers.get("content-type"), "application/problem+json");
        });
      }
      if (op.body) {
        it(`${path}: ${op.method} with Content-Type: application/xml → 415 problem naming ${op.body.contentTypes.join(", ")}`, async () => {
          const res = await call(`${s.url}${concrete(path)}`, {
            method: op.method,
            headers: { "Content-Type": "application/xml" },
            body: "<a/>",
          });
          assert.equal(res.status, 415, res.text);
          assert.equal(res.headers.get("content-type"), "application/problem+json");
          assert.equal(
            res.headers.get(op.method === "PATCH" ? "accept-patch" : "accept-post"),
            op.body!.contentTypes.join(", "),
          );
        });
      }
    }

    for (const method of declared) {
      it(`${path}: ${method} is routed (never 404 for an unknown route, never 405)`, async () => {
        const res = await call(`${s.url}${concrete(path)}`, { method });
        assert.ok(![405].includes(res.status), `${res.status} ${res.text}`);
        assert.equal(res.json?.entryPoints, undefined, "answered by a route, not by the unknown-path fallback");
        assert.ok(res.status < 500 || res.status === 501, `${res.status} ${res.text}`);
      });
    }
  }

  it("operations without a handler answer 501 problem+json naming the operation (whole spec reachable)", async () => {
    const koa = new Koa();
    const router = new Router({ exclusive: "specificity" });
    mountRest(router, {});
    koa.use(problemErrors()).use(router.routes());
    const handle = koa.callback();
    const server = createServer((req, res) => void handle(req, res)).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // fetch itself: the kit's call() reports a stub's 501 as not yet implemented, which is what is checked here.
      const res = await fetch(`${base}/customers/cus_1/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items: [{ sku: "a", quantity: 1, unitPrice: 1 }] }),
      });
      assert.equal(res.status, 501);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.match(
        ((await res.json()) as { detail: string }).detail,
        /placeOrder \(POST \/customers\/\{customerId\}\/orders\)/,
      );
    } finally {
      server.close();
    }
  });

  it("a body over the configured limit → 413 problem", async () => {
    const small = await startServer({ bodyLimit: 64 });
    try {
      const res = await call(`${small.url}/customers`, {
        method: "POST",
        json: { firstName: "x".repeat(100), lastName: "L", email: "a@example.com" },
      });
      assert.equal(res.status, 413);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
    } finally {
      await small.close();
    }
  });

  it("an unknown path → 404 problem listing the entry points", async () => {
    const res = await call(`${s.url}/no/such/thing`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(res.json.entryPoints, [...paths, "/graphql"]);
  });

  it("every response carries X-Request-Id, echoing a sane one the caller sent", async () => {
    const res = await call(`${s.url}/customers`, { headers: { "X-Request-Id": "trace-123" } });
    assert.equal(res.headers.get("x-request-id"), "trace-123");
    const generated = await call(`${s.url}/customers`, { headers: { "X-Request-Id": "bad id with spaces" } });
    assert.match(generated.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
  });
});
